import type { AgentTreeNode } from './agent-model';
import type { GoalRecord } from './goal-model';
import type { InteractionRecord } from './interaction-model';
import type { ShellRunRecord } from './shell-run-model';
import type { QueuedMessage, SessionRecord, TranscriptItem, TurnSummary } from './model';
import type { RunProgress } from './run-progress';

/**
 * Change events pushed to every subscriber. They are signals, not the record: a client that sees a
 * gap in `seq` (or reconnects) re-reads what it needs with a query operation.
 */
export type ChangeEventBody =
  | { readonly kind: 'session.changed'; readonly session: SessionRecord }
  | { readonly kind: 'session.removed'; readonly sessionId: string }
  | { readonly kind: 'turn.changed'; readonly turn: TurnSummary }
  /** A running turn waits on its provider (`progress`), or the provider is answering again (null). */
  | { readonly kind: 'run.progress'; readonly sessionId: string; readonly turnId: string; readonly runId: string; readonly progress: RunProgress | null }
  | { readonly kind: 'transcript.appended'; readonly item: TranscriptItem }
  | {
      readonly kind: 'transcript.delta';
      readonly sessionId: string;
      readonly itemId: string;
      /**
       * Text appended to the item; `length` is the item's text length after it, counted in Unicode code
       * points (not UTF-16 units), so a client can detect a missed delta.
       */
      readonly text: string;
      readonly length: number;
    }
  | { readonly kind: 'transcript.finalized'; readonly sessionId: string; readonly itemIds: readonly string[] }
  | { readonly kind: 'queue.changed'; readonly message: QueuedMessage }
  /** The connection catalog changed; re-read it with connection.list. */
  | { readonly kind: 'connections.changed'; readonly catalogRevision: number }
  | { readonly kind: 'interaction.changed'; readonly interaction: InteractionRecord }
  | { readonly kind: 'goal.changed'; readonly goal: GoalRecord }
  | { readonly kind: 'shell.changed'; readonly shellRun: ShellRunRecord }
  /** A child agent of the tree was started or changed (null: the tree itself changed, e.g. it failed); re-read it with agent.tree. */
  | { readonly kind: 'agent.changed'; readonly rootSessionId: string; readonly child: AgentTreeNode | null }
  /**
   * Something the person must know now that the record cannot (yet) say: the disk is full and a
   * turn was stopped. `sessionId` names the session it concerns, if any.
   */
  | { readonly kind: 'host.notice'; readonly code: 'storage_full' | 'storage_failed'; readonly sessionId: string | null; readonly message: string }
  /** Live output of a running command, coalesced (about every 50 ms). */
  | { readonly kind: 'shell.output'; readonly sessionId: string; readonly shellRunId: string; readonly stream: 'stdout' | 'stderr'; readonly text: string };

export type ChangeEvent = ChangeEventBody & { readonly seq: number; readonly hostEpoch: string };

export type ChangeEventKind = ChangeEventBody['kind'];
