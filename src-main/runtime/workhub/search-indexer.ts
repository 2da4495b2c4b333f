import type { ChangeEvent } from '../../../src-shared/events';
import { WORKHUB_SESSION_ID } from '../../../src-shared/workhub-model';
import type { Stores } from '../../storage/stores';

const RECENT_ITEMS = 30;
const BODY_LIMIT = 8000;

/** Keeps the WorkHub's full-text index of session titles and recent transcript text up to date. */
export class SearchIndexer {
  constructor(private readonly stores: Stores) {}

  refresh(sessionId: string): void {
    if (sessionId === WORKHUB_SESSION_ID) return;
    const session = this.stores.sessions.get(sessionId);
    if (session === null) {
      this.stores.workhub.unindex(sessionId);
      return;
    }
    const body = this.stores.transcript
      .page(sessionId, null, RECENT_ITEMS)
      .filter((item) => item.kind === 'user_message' || item.kind === 'assistant_message')
      .map((item) => item.text)
      .join('\n')
      .slice(-BODY_LIMIT);
    this.stores.workhub.index(sessionId, session.title, body);
  }

  /** Follows the change events that alter what a session is about. */
  onEvent(event: ChangeEvent): void {
    if (event.kind === 'session.changed') this.refresh(event.session.sessionId);
    else if (event.kind === 'session.removed') this.stores.workhub.unindex(event.sessionId);
  }

  /** Indexes every session (after an upgrade, or when the index is empty). */
  rebuild(): void {
    let cursor: { updatedAt: number; sessionId: string } | undefined;
    for (const archived of [false, true]) {
      cursor = undefined;
      for (;;) {
        const page = this.stores.sessions.list({ archived, limit: 200, ...(cursor === undefined ? {} : { cursor }) });
        for (const session of page) this.refresh(session.sessionId);
        const last = page.at(-1);
        if (page.length < 200 || last === undefined) break;
        cursor = { updatedAt: last.updatedAt, sessionId: last.sessionId };
      }
    }
  }
}
