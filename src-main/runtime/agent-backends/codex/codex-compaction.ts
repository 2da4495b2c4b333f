import { z } from 'zod';
import { AgentBackendError } from '../../contract/agent-backend';
import type { LiveAppServer } from './live-app-server';

const turnStarted = z.object({ turn: z.object({ id: z.string() }) });
const compactionItem = z.object({ item: z.object({ type: z.literal('contextCompaction') }) });

/**
 * Codex compacts its thread itself (`thread/compact/start`): it starts a Codex turn in which it asks
 * its model for the summary and replaces the thread's history with it. The request answers at once;
 * this waits for that turn to start and returns its id, so the turn is read like any other. The
 * messages read before it (claimed once, like every message) are of no run.
 */
export async function startThreadCompaction(
  live: LiveAppServer,
  claim: (seq: number) => boolean,
  requestMs: number,
  signal: AbortSignal,
): Promise<string | null> {
  if (live.threadId === null)
    throw new AgentBackendError(
      'compaction_failed',
      'This Codex session has no thread to compact yet.',
      'compaction_failed',
    );
  await live.rpc.request('thread/compact/start', { threadId: live.threadId }, requestMs).catch((error: unknown) => {
    throw new AgentBackendError(
      'compaction_failed',
      `Codex did not compact its context: ${error instanceof Error ? error.message : String(error)}`,
      'compaction_failed',
    );
  });
  const deadline = AbortSignal.any([signal, AbortSignal.timeout(requestMs)]);
  for (;;) {
    const message = await live.next(deadline);
    if (message === null) {
      if (signal.aborted) return null;
      throw new AgentBackendError(
        'compaction_failed',
        'Codex accepted the compaction but did not start it in time.',
        'compaction_failed',
      );
    }
    if (message.kind === 'exited')
      throw new AgentBackendError(
        'agent_process_exited',
        'Codex stopped unexpectedly while compacting its context.',
        'agent_process_exited',
      );
    if (!claim(message.value.seq)) continue;
    if (message.kind === 'notification' && message.value.method === 'turn/started') {
      const parsed = turnStarted.safeParse(message.value.params);
      if (parsed.success) return parsed.data.turn.id;
    }
  }
}

/** Whether a Codex notification says the thread's context was compacted (its contextCompaction item completed). */
export function isContextCompaction(method: string, params: unknown): boolean {
  if (method === 'item/completed') return compactionItem.safeParse(params).success;
  return false;
}
