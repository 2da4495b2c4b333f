import type { AgentContext } from '@agentclientprotocol/sdk';
import type { TranscriptItem, TranscriptItemKind } from '../../src-shared/model';
import type { LocalHostClient } from '../host-client/local-host-client';
import { updateForItem } from './transcript-updates';

/** Pages of the record read at a time, newest first, for `session/load`. */
const PAGE = 500;

/** An item as `session/load` sent it: its kind and the length of its text then, in code points. */
export interface ReplayedItem {
  readonly turnId: string;
  readonly kind: TranscriptItemKind;
  readonly length: number;
}

/**
 * `session/load`: a session's whole history, from Cairn's record, sent to the editor as the updates
 * it was made of (the person's messages as `user_message_chunk`s), oldest first. Returns what was
 * sent, so a turn still running is carried on from there without repeating any of it.
 */
export async function replayTranscript(
  host: LocalHostClient,
  client: AgentContext,
  sessionId: string,
): Promise<ReadonlyMap<string, ReplayedItem>> {
  const pages: TranscriptItem[][] = [];
  let before: number | undefined;
  for (;;) {
    const page = await host.invoke('transcript.page', {
      sessionId,
      limit: PAGE,
      ...(before === undefined ? {} : { before }),
    });
    if (!page.ok) throw new Error(page.error.message);
    pages.unshift([...page.result.items]);
    if (page.result.nextBefore === null) break;
    before = page.result.nextBefore;
  }
  const replayed = new Map<string, ReplayedItem>();
  for (const item of pages.flat()) {
    replayed.set(item.itemId, { turnId: item.turnId, kind: item.kind, length: [...item.text].length });
    const update = updateForItem(item, 'replay');
    if (update !== null) await client.notify('session/update', { sessionId, update });
  }
  return replayed;
}
