import type { GoalRecord } from '../../src-shared/goal-model';
import type { InteractionRecord } from '../../src-shared/interaction-model';
import type { QueuedMessage, RunStatus, RunSummary, TranscriptItem, TurnDetail } from '../../src-shared/model';
import type { ShellRunRecord } from '../../src-shared/shell-run-model';
import { ACK_CATEGORIES, type AckCategory, type AckFact, type AckLog } from './acknowledged';

/** The durable record of some sessions, as the public query operations return it after a restart. */
export interface RecordSnapshot {
  readonly sessions: ReadonlySet<string>;
  readonly items: ReadonlyMap<string, TranscriptItem>;
  /** Keyed `sessionId/turnId`. */
  readonly turns: ReadonlyMap<string, TurnDetail>;
  /** Every run of every turn read, keyed by run id. */
  readonly runs: ReadonlyMap<string, RunSummary & { readonly sessionId: string; readonly turnId: string }>;
  readonly interactions: ReadonlyMap<string, InteractionRecord>;
  readonly goals: ReadonlyMap<string, GoalRecord>;
  /** Keyed `sessionId/messageId`. */
  readonly queue: ReadonlyMap<string, QueuedMessage>;
  readonly shellRuns: ReadonlyMap<string, ShellRunRecord>;
}

export interface Loss {
  readonly category: AckCategory;
  readonly sessionId: string;
  readonly what: string;
  /** How many acknowledged events this loss covers (a stream that lost its last N deltas: N). */
  readonly events: number;
}

export interface RecordCheck {
  readonly checked: Record<AckCategory, number>;
  readonly lost: readonly Loss[];
}

const TERMINAL_RUN: readonly RunStatus[] = ['completed', 'failed', 'cancelled', 'interrupted'];
const QUEUE_FINAL = ['started', 'cancelled'];

/** Checks every acknowledged fact against the record; a fact the record no longer holds is lost. */
export function checkRecord(log: AckLog, record: RecordSnapshot): RecordCheck {
  const checked = Object.fromEntries(ACK_CATEGORIES.map((category) => [category, 0])) as Record<AckCategory, number>;
  const lost: Loss[] = [];
  const byKey = new Map<string, number>();
  for (const fact of log.facts) {
    checked[fact.category] += 1;
    const gap = missing(fact, log, record);
    if (gap === null) continue;
    // The deltas of one item (or output of one stream) are reported once, with the fullest description.
    const key = `${fact.category}:${gap.subject}`;
    const index = byKey.get(key);
    if (index === undefined) {
      byKey.set(key, lost.length);
      lost.push({ category: fact.category, sessionId: fact.sessionId, what: gap.what, events: 1 });
    } else {
      const earlier = lost[index];
      if (earlier !== undefined) lost[index] = { ...earlier, what: gap.what, events: earlier.events + 1 };
    }
  }
  return { checked, lost };
}

/** Runs the record still calls `running` although they started before the restart: nothing runs them. */
export function stuckRuns(record: RecordSnapshot, restartedAt: number): string[] {
  return [...record.runs.values()]
    .filter((run) => run.status === 'running' && run.startedAt < restartedAt)
    .map(
      (run) =>
        `run ${run.runId} of turn ${run.turnId} (session ${run.sessionId}, ${run.kind}) is still running after the restart`,
    );
}

/** What the record lacks of `fact` (`subject` names the thing, for grouping), or null when it holds it. */
function missing(fact: AckFact, log: AckLog, record: RecordSnapshot): { subject: string; what: string } | null {
  const gap = (subject: string, what: string | null) => (what === null ? null : { subject, what });
  switch (fact.category) {
    case 'session':
      return gap(fact.sessionId, record.sessions.has(fact.sessionId) ? null : `session ${fact.sessionId} is missing`);
    case 'transcript': {
      const item = record.items.get(fact.itemId);
      const seen = (log.itemTexts.get(fact.itemId) ?? '').slice(0, fact.end);
      if (item === undefined)
        return gap(
          fact.itemId,
          `transcript item ${fact.itemId} is missing (the client had seen ${describeText(seen)})`,
        );
      if (fact.kind !== null && item.kind !== fact.kind)
        return gap(fact.itemId, `transcript item ${fact.itemId} is a ${item.kind}, the client was told ${fact.kind}`);
      if (item.text.startsWith(seen)) return null;
      return gap(
        fact.itemId,
        `transcript item ${fact.itemId} (${item.kind}) holds ${item.text.length} characters ending ${describeText(item.text)}; the client had seen ${seen.length}, ending ${describeText(seen)}`,
      );
    }
    case 'turn': {
      const run = record.runs.get(fact.runId);
      if (run === undefined) return gap(fact.runId, `run ${fact.runId} of turn ${fact.turnId} is missing`);
      if (!TERMINAL_RUN.includes(fact.status) || run.status === fact.status) return null;
      return gap(
        fact.runId,
        `run ${fact.runId} of turn ${fact.turnId} ended ${fact.status} as acknowledged, the record says ${run.status}`,
      );
    }
    case 'interaction': {
      const interaction = record.interactions.get(fact.interactionId);
      if (interaction === undefined) return gap(fact.interactionId, `interaction ${fact.interactionId} is missing`);
      if (fact.status === 'pending' || interaction.status === fact.status) return null;
      return gap(
        fact.interactionId,
        `interaction ${fact.interactionId} was acknowledged ${fact.status}, the record says ${interaction.status}`,
      );
    }
    case 'goal': {
      const goal = record.goals.get(fact.goalId);
      if (goal === undefined) return gap(fact.goalId, `goal ${fact.goalId} is missing`);
      if (goal.revision < fact.revision || goal.iterations < fact.iterations) {
        return gap(
          fact.goalId,
          `goal ${fact.goalId} went back from revision ${fact.revision} (${fact.iterations} turns) to revision ${goal.revision} (${goal.iterations} turns)`,
        );
      }
      if (fact.status === 'complete' && goal.status !== 'complete')
        return gap(fact.goalId, `goal ${fact.goalId} was acknowledged complete, the record says ${goal.status}`);
      return null;
    }
    case 'queue': {
      const message = record.queue.get(`${fact.sessionId}/${fact.messageId}`);
      if (message === undefined) return gap(fact.messageId, `queued message ${fact.messageId} is missing`);
      if (!QUEUE_FINAL.includes(fact.state) || message.state === fact.state) return null;
      return gap(
        fact.messageId,
        `queued message ${fact.messageId} was acknowledged ${fact.state}, the record says ${message.state}`,
      );
    }
    case 'shell': {
      const run = record.shellRuns.get(fact.shellRunId);
      const subject = fact.shellRunId;
      if (run === undefined) return gap(subject, `shell run ${fact.shellRunId} is missing`);
      if (fact.pid !== null && run.pid !== fact.pid)
        return gap(subject, `shell run ${fact.shellRunId} had pid ${fact.pid}, the record says ${String(run.pid)}`);
      const live = fact.status === 'starting' || fact.status === 'running';
      if (!live && run.status !== fact.status)
        return gap(
          subject,
          `shell run ${fact.shellRunId} was acknowledged ${fact.status}, the record says ${run.status}`,
        );
      if (fact.status === 'running' && run.status === 'starting')
        return gap(subject, `shell run ${fact.shellRunId} was acknowledged running, the record says starting`);
      return null;
    }
    case 'shell_output': {
      const run = record.shellRuns.get(fact.shellRunId);
      const subject = `${fact.shellRunId}:${fact.stream}`;
      const seen = (log.shellOutputs.get(subject) ?? '').slice(0, fact.end);
      if (run === undefined) return gap(subject, `the ${fact.stream} of shell run ${fact.shellRunId} is missing`);
      const tail = fact.stream === 'stdout' ? run.stdoutTail : run.stderrTail;
      const truncated = fact.stream === 'stdout' ? run.stdoutTruncated : run.stderrTruncated;
      // The soak's commands print far less than a tail holds; a cut tail cannot be compared from its start.
      if (truncated || tail.startsWith(seen)) return null;
      return gap(
        subject,
        `the ${fact.stream} of shell run ${fact.shellRunId} (${run.status}) keeps ${lineCount(tail)} lines (last ${describeText(lastLine(tail))}); the client had seen ${lineCount(seen)} (last ${describeText(lastLine(seen))})`,
      );
    }
  }
}

function describeText(text: string): string {
  return JSON.stringify(text.length > 30 ? `…${text.slice(-30)}` : text);
}

function lineCount(text: string): number {
  return text === '' ? 0 : text.split('\n').filter((line) => line !== '').length;
}

function lastLine(text: string): string {
  return (
    text
      .split('\n')
      .filter((line) => line !== '')
      .at(-1) ?? ''
  );
}
