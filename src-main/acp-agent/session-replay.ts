import type { AgentContext } from '@agentclientprotocol/sdk';
import type { TranscriptItem } from '../../src-shared/model';
import type { LocalHostClient } from '../host-client/local-host-client';
import { updateForItem } from './transcript-updates';

/** Pages of the record read at a time, newest first, for `session/load`. */
const PAGE = 500;

/**
 * `session/load`: a session's whole history, from Cairn's record, sent to the editor as the updates
 * it was made of (the person's messages as `user_message_chunk`s), oldest first.
 */
export async function replayTranscript(host: LocalHostClient, client: AgentContext, sessionId: string) {
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
  for (const item of pages.flat()) {
    const update = updateForItem(item, 'replay');
    if (update !== null) await client.notify('session/update', { sessionId, update });
  }
}
