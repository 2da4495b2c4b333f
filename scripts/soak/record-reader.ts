import type { GoalRecord } from '../../src-shared/goal-model';
import type { InteractionRecord } from '../../src-shared/interaction-model';
import type { QueuedMessage, RunSummary, TranscriptItem, TurnDetail } from '../../src-shared/model';
import type { ShellRunRecord } from '../../src-shared/shell-run-model';
import type { RecordSnapshot } from './record-check';
import type { SoakClient } from './soak-client';

/** Reads the durable record of `sessionIds` through the public query operations only. */
export async function readRecord(client: SoakClient, sessionIds: Iterable<string>): Promise<RecordSnapshot> {
  const sessions = new Set<string>();
  const items = new Map<string, TranscriptItem>();
  const turns = new Map<string, TurnDetail>();
  const runs = new Map<string, RunSummary & { sessionId: string; turnId: string }>();
  const interactions = new Map<string, InteractionRecord>();
  const goals = new Map<string, GoalRecord>();
  const queue = new Map<string, QueuedMessage>();
  const shellRuns = new Map<string, ShellRunRecord>();

  for (const sessionId of sessionIds) {
    const exists = await client.request('session.get', { sessionId });
    if (exists === null) throw new Error('The host closed the connection while the record was read');
    if (!exists.ok) {
      if (exists.error.code === 'not_found') continue;
      throw new Error(`session.get failed: ${exists.error.message}`);
    }
    sessions.add(sessionId);
    const turnIds = new Set<string>();
    let before: number | undefined;
    for (;;) {
      const page = await client.call(
        'transcript.page',
        before === undefined ? { sessionId, limit: 500 } : { sessionId, before, limit: 500 },
      );
      for (const item of page.items) items.set(item.itemId, item);
      for (const turn of page.turns) turnIds.add(turn.turnId);
      if (page.nextBefore === null) break;
      before = page.nextBefore;
    }
    for (const turnId of turnIds) {
      const { turn } = await client.call('turn.query', { sessionId, turnId });
      turns.set(`${sessionId}/${turnId}`, turn);
      for (const run of turn.runs) runs.set(run.runId, { ...run, sessionId, turnId });
    }
    for (const interaction of (await client.call('interaction.list', { sessionId, limit: 500 })).interactions) {
      interactions.set(interaction.interactionId, interaction);
    }
    for (const goal of (await client.call('goal.history', { sessionId })).goals) goals.set(goal.goalId, goal);
    for (const message of (await client.call('turn.message.query', { sessionId })).messages)
      queue.set(`${sessionId}/${message.messageId}`, message);
    for (const shellRun of (await client.call('shell.list', { sessionId, limit: 500 })).shellRuns)
      shellRuns.set(shellRun.shellRunId, shellRun);
  }
  return { sessions, items, turns, runs, interactions, goals, queue, shellRuns };
}
