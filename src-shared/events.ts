import type { AcpInstallState } from './acp-install-model';
import type { AcpAuthMethods, AcpLoginState } from './acp-login-model';
import type { AcpAgentIdentity, AcpSessionOffers } from './acp-model';
import type { AutomationNoticeCode } from './automation-model';
import type { CodexQuarantine, CodexThreadProblem } from './codex-model';
import type { ContextMeter } from './context-model';
import type { AgentTreeNode } from './agent-model';
import type { GoalRecord } from './goal-model';
import type { InteractionRecord } from './interaction-model';
import type { MemoryRecord } from './memory-model';
import type { McpServerRecord } from './mcp-model';
import type { ShellRunRecord } from './shell-run-model';
import type { QueuedMessage, SessionRecord, TranscriptItem, TurnSummary } from './model';
import type { RunProgress } from './run-progress';
import type { WorktreeRecord } from './worktree-model';

/**
 * Change events pushed to every subscriber. They are signals, not the record: a client that sees a
 * gap in `seq` (or reconnects) re-reads what it needs with a query operation.
 */
export type ChangeEventBody =
  | { readonly kind: 'session.changed'; readonly session: SessionRecord }
  | { readonly kind: 'session.removed'; readonly sessionId: string }
  | { readonly kind: 'turn.changed'; readonly turn: TurnSummary }
  /** A running turn waits on its provider (`progress`), or the provider is answering again (null). */
  | {
      readonly kind: 'run.progress';
      readonly sessionId: string;
      readonly turnId: string;
      readonly runId: string;
      readonly progress: RunProgress | null;
    }
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
  /** Paired devices, the pairing code or the reach listener changed; re-read them with device.list. */
  | { readonly kind: 'devices.changed' }
  /** The connection catalog changed; re-read it with connection.list. */
  | { readonly kind: 'connections.changed'; readonly catalogRevision: number }
  | { readonly kind: 'interaction.changed'; readonly interaction: InteractionRecord }
  | { readonly kind: 'goal.changed'; readonly goal: GoalRecord }
  /** A Codex session was quarantined (its old app-server not confirmed gone) or released (null). */
  | {
      readonly kind: 'codex.quarantine.changed';
      readonly sessionId: string;
      readonly quarantine: CodexQuarantine | null;
    }
  /** A Codex session's thread could not be resumed, the person chose what to do, or it was settled (null). */
  | {
      readonly kind: 'codex.thread.changed';
      readonly sessionId: string;
      readonly threadProblem: CodexThreadProblem | null;
    }
  | { readonly kind: 'shell.changed'; readonly shellRun: ShellRunRecord }
  /** An MCP server's settings or status changed (connected, starting, failed, disabled). */
  | { readonly kind: 'mcp.server.changed'; readonly server: McpServerRecord }
  | { readonly kind: 'mcp.server.removed'; readonly serverId: string }
  /** A child agent of the tree was started or changed (null: the tree itself changed, e.g. it failed); re-read it with agent.tree. */
  | { readonly kind: 'agent.changed'; readonly rootSessionId: string; readonly child: AgentTreeNode | null }
  /**
   * Something the person must know now that the record cannot (yet) say: the disk is full and a
   * turn was stopped. `sessionId` names the session it concerns, if any.
   */
  | {
      readonly kind: 'host.notice';
      readonly code:
        'storage_full' | 'storage_failed' | 'storage_damaged' | 'memory_unavailable' | AutomationNoticeCode;
      readonly sessionId: string | null;
      readonly message: string;
    }
  /** A scheduled task, its firings or the daily review changed; re-read them with schedule.list / dailyReview.get. */
  | { readonly kind: 'automation.changed'; readonly taskId: string }
  /** A memory was written (by the agent's remember or the person's edit); re-read with memory.list. */
  | { readonly kind: 'memory.changed'; readonly memory: MemoryRecord }
  | { readonly kind: 'memory.removed'; readonly memoryId: string }
  /** A branch of `sourceSessionId` was created (or finished copying); re-read with session.branches. */
  | { readonly kind: 'session.branched'; readonly sessionId: string; readonly sourceSessionId: string }
  /** Live output of a running command, coalesced (about every 50 ms). */
  /** The agent of an ACP session named itself (`initialize`) as it started for the session. */
  | { readonly kind: 'acp.agent.changed'; readonly sessionId: string; readonly agent: AcpAgentIdentity }
  /** What an ACP session's agent offers (its commands, modes, config options) changed, or the person chose among them. */
  | { readonly kind: 'acp.offers.changed'; readonly sessionId: string; readonly offers: AcpSessionOffers }
  /** Reclaim space started, progressed or ended; re-read storage.usage. */
  | { readonly kind: 'storage.changed' }
  /** How full a session's context is, after each model request was fitted into its window. */
  | { readonly kind: 'context.changed'; readonly sessionId: string; readonly meter: ContextMeter }
  /** A turn's file changes were recorded, or a revert was; re-read them with changes.list. */
  | { readonly kind: 'changes.changed'; readonly sessionId: string; readonly turnId: string }
  /** A session's worktree was made, merged back, discarded or brought up to date; re-read it with worktree.status. */
  | { readonly kind: 'worktree.changed'; readonly sessionId: string; readonly worktree: WorktreeRecord }
  /** A preset ACP agent's install moved on: a new npm output line, or it began, ended, failed or was cancelled. */
  | { readonly kind: 'acp.install.changed'; readonly install: AcpInstallState }
  /** An ACP connection's agent said how it signs in (`initialize`'s `authMethods`). */
  | { readonly kind: 'acp.login.methods.changed'; readonly methods: AcpAuthMethods }
  /** A sign-in to an ACP agent began or ended (succeeded, failed, cancelled). */
  | { readonly kind: 'acp.login.changed'; readonly login: AcpLoginState }
  /** Output of a running terminal sign-in, as it came (stdout and stderr). */
  | { readonly kind: 'acp.login.output'; readonly loginId: string; readonly text: string }
  | {
      readonly kind: 'shell.output';
      readonly sessionId: string;
      readonly shellRunId: string;
      readonly stream: 'stdout' | 'stderr';
      readonly text: string;
    };

export type ChangeEvent = ChangeEventBody & { readonly seq: number; readonly hostEpoch: string };

export type ChangeEventKind = ChangeEventBody['kind'];
