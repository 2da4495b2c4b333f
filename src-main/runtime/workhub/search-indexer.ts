import type { ChangeEvent } from '../../../src-shared/events';
import { WORKHUB_SESSION_ID } from '../../../src-shared/workhub-model';
import type { Stores } from '../../storage/stores';
import type { Logger } from '../ports/ports';

const RECENT_ITEMS = 30;
const BODY_LIMIT = 8000;

/**
 * Keeps the WorkHub's full-text index of session titles and recent transcript text up to date,
 * incrementally: each session is re-indexed when it changes, clearing the mark the database set
 * when it changed. A start re-indexes only what is still marked (changed while no host followed,
 * e.g. a crash between a write and its index update), so its cost does not grow with history; the
 * whole index is rebuilt only after a migration marked everything or when it is found damaged.
 */
export class SearchIndexer {
  constructor(
    private readonly stores: Stores,
    private readonly logger: Logger,
  ) {}

  refresh(sessionId: string): void {
    this.repairingOnce(() => this.index(sessionId));
  }

  /** Follows the change events that alter what a session is about. */
  onEvent(event: ChangeEvent): void {
    if (event.kind === 'session.changed') this.refresh(event.session.sessionId);
    else if (event.kind === 'session.removed') this.repairingOnce(() => this.remove(event.sessionId));
  }

  /** At start: indexes the sessions whose index entry is missing or behind, and drops the gone ones. */
  catchUp(): void {
    this.repairingOnce(() => {
      // A one-word query reads the index's structure: cheap, and it finds a damaged index at start.
      this.stores.workhub.search(['cairn'], 1);
      for (const sessionId of this.stores.searchIndex.pending()) this.index(sessionId);
    });
  }

  private index(sessionId: string): void {
    this.stores.transaction(() => {
      const session = sessionId === WORKHUB_SESSION_ID ? null : this.stores.sessions.get(sessionId);
      if (session === null) {
        // Gone, or the WorkHub itself (never a search result): no entry.
        this.remove(sessionId);
        return;
      }
      const body = this.stores.transcript
        .page(sessionId, null, RECENT_ITEMS)
        .filter((item) => item.kind === 'user_message' || item.kind === 'assistant_message')
        .map((item) => item.text)
        .join('\n')
        .slice(-BODY_LIMIT);
      this.stores.workhub.index(sessionId, session.title, body);
      this.stores.searchIndex.markCurrent(sessionId);
    });
  }

  private remove(sessionId: string): void {
    this.stores.transaction(() => {
      this.stores.workhub.unindex(sessionId);
      this.stores.searchIndex.markCurrent(sessionId);
    });
  }

  /** Runs `work`; when the index turns out to be damaged, rebuilds it from the sessions and retries. */
  private repairingOnce(work: () => void): void {
    try {
      work();
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      if (typeof code !== 'string' || !code.startsWith('SQLITE_CORRUPT')) throw error;
      this.logger.warn('The WorkHub search index was damaged; rebuilding it from the sessions', {
        error: String(error),
      });
      this.stores.searchIndex.reset();
      for (const sessionId of this.stores.searchIndex.pending()) this.index(sessionId);
      work();
    }
  }
}
