import type { ChangeEvent } from '../../src-shared/events';
import type { GoalStatus } from '../../src-shared/goal-model';
import type { InteractionStatus } from '../../src-shared/interaction-model';
import type { QueuedMessageState, RunStatus, TranscriptItemKind } from '../../src-shared/model';
import type { ShellRunStatus } from '../../src-shared/shell-run-model';

/**
 * What a client was told before the host was killed: every event it received and every operation the
 * host answered `ok`. Each is one fact the durable record must still hold after the restart
 * (ARCHITECTURE.md §4 invariant 1: acknowledged means durable).
 */
export type AckFact =
  /** A `transcript.appended` or `transcript.delta`: the item held at least this much text. */
  | {
      readonly category: 'transcript';
      readonly sessionId: string;
      readonly itemId: string;
      readonly kind: TranscriptItemKind | null;
      readonly end: number;
    }
  /** `session.create` answered, or a `session.changed` event. */
  | { readonly category: 'session'; readonly sessionId: string }
  /** `turn.start` / `turn.resume` answered, or a `turn.changed` event: the turn and its run, in this status. */
  | {
      readonly category: 'turn';
      readonly sessionId: string;
      readonly turnId: string;
      readonly runId: string;
      readonly status: RunStatus;
    }
  | {
      readonly category: 'interaction';
      readonly sessionId: string;
      readonly interactionId: string;
      readonly status: InteractionStatus;
    }
  | {
      readonly category: 'goal';
      readonly sessionId: string;
      readonly goalId: string;
      readonly status: GoalStatus;
      readonly iterations: number;
      readonly revision: number;
    }
  | {
      readonly category: 'queue';
      readonly sessionId: string;
      readonly messageId: string;
      readonly state: QueuedMessageState;
    }
  | {
      readonly category: 'shell';
      readonly sessionId: string;
      readonly shellRunId: string;
      readonly status: ShellRunStatus;
      readonly pid: number | null;
    }
  /** A `shell.output` event: the stream's output held at least this much text. */
  | {
      readonly category: 'shell_output';
      readonly sessionId: string;
      readonly shellRunId: string;
      readonly stream: 'stdout' | 'stderr';
      readonly end: number;
    };

export type AckCategory = AckFact['category'];

export const ACK_CATEGORIES: readonly AckCategory[] = [
  'transcript',
  'session',
  'turn',
  'interaction',
  'goal',
  'queue',
  'shell',
  'shell_output',
];

/** Collects the facts of one kill cycle. */
export class AckLog {
  readonly facts: AckFact[] = [];
  /** The text each transcript item had as acknowledged (appended text plus every delta). */
  readonly itemTexts = new Map<string, string>();
  /** The live output of each shell run's stream as acknowledged; key `shellRunId:stream`. */
  readonly shellOutputs = new Map<string, string>();

  sessionIds(): Set<string> {
    return new Set(this.facts.map((fact) => fact.sessionId));
  }

  /** An operation the host answered `ok` (only those that write something are facts). */
  addAnswer(answer: AnsweredOperation): void {
    switch (answer.op) {
      case 'session.create':
        this.facts.push({ category: 'session', sessionId: answer.sessionId });
        break;
      case 'turn.start':
      case 'turn.resume':
        this.facts.push({
          category: 'turn',
          sessionId: answer.sessionId,
          turnId: answer.turnId,
          runId: answer.runId,
          status: answer.status,
        });
        break;
      case 'turn.message.submit':
        this.facts.push({
          category: 'queue',
          sessionId: answer.sessionId,
          messageId: answer.messageId,
          state: answer.state,
        });
        break;
      case 'interaction.answer':
        this.facts.push({
          category: 'interaction',
          sessionId: answer.sessionId,
          interactionId: answer.interactionId,
          status: answer.status,
        });
        break;
    }
  }

  addEvent(event: ChangeEvent): void {
    switch (event.kind) {
      case 'session.changed':
        this.facts.push({ category: 'session', sessionId: event.session.sessionId });
        break;
      case 'transcript.appended': {
        const { item } = event;
        this.itemTexts.set(item.itemId, item.text);
        this.facts.push({
          category: 'transcript',
          sessionId: item.sessionId,
          itemId: item.itemId,
          kind: item.kind,
          end: item.text.length,
        });
        break;
      }
      case 'transcript.delta': {
        const text = (this.itemTexts.get(event.itemId) ?? '') + event.text;
        this.itemTexts.set(event.itemId, text);
        this.facts.push({
          category: 'transcript',
          sessionId: event.sessionId,
          itemId: event.itemId,
          kind: null,
          end: text.length,
        });
        break;
      }
      case 'turn.changed': {
        const { turn } = event;
        this.facts.push({
          category: 'turn',
          sessionId: turn.sessionId,
          turnId: turn.turnId,
          runId: turn.latestRun.runId,
          status: turn.latestRun.status,
        });
        break;
      }
      case 'interaction.changed': {
        const { interaction } = event;
        this.facts.push({
          category: 'interaction',
          sessionId: interaction.sessionId,
          interactionId: interaction.interactionId,
          status: interaction.status,
        });
        break;
      }
      case 'goal.changed': {
        const { goal } = event;
        this.facts.push({
          category: 'goal',
          sessionId: goal.sessionId,
          goalId: goal.goalId,
          status: goal.status,
          iterations: goal.iterations,
          revision: goal.revision,
        });
        break;
      }
      case 'queue.changed': {
        const { message } = event;
        this.facts.push({
          category: 'queue',
          sessionId: message.sessionId,
          messageId: message.messageId,
          state: message.state,
        });
        break;
      }
      case 'shell.changed': {
        const { shellRun } = event;
        this.facts.push({
          category: 'shell',
          sessionId: shellRun.sessionId,
          shellRunId: shellRun.shellRunId,
          status: shellRun.status,
          pid: shellRun.pid,
        });
        break;
      }
      case 'shell.output': {
        const key = `${event.shellRunId}:${event.stream}`;
        const text = (this.shellOutputs.get(key) ?? '') + event.text;
        this.shellOutputs.set(key, text);
        this.facts.push({
          category: 'shell_output',
          sessionId: event.sessionId,
          shellRunId: event.shellRunId,
          stream: event.stream,
          end: text.length,
        });
        break;
      }
      default:
        break; // finalization, removals and catalog changes carry nothing new to keep
    }
  }
}

/** An `ok` answer, reduced to what the record must keep. */
export type AnsweredOperation =
  | { readonly op: 'session.create'; readonly sessionId: string }
  | {
      readonly op: 'turn.start' | 'turn.resume';
      readonly sessionId: string;
      readonly turnId: string;
      readonly runId: string;
      readonly status: RunStatus;
    }
  | {
      readonly op: 'turn.message.submit';
      readonly sessionId: string;
      readonly messageId: string;
      readonly state: QueuedMessageState;
    }
  | {
      readonly op: 'interaction.answer';
      readonly sessionId: string;
      readonly interactionId: string;
      readonly status: InteractionStatus;
    };
