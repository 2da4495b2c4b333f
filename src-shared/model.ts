/** Domain records as clients see them. Everything here is plain data (JSON-safe). */

import type { AttachmentRef } from './attachment-model';

export const PERMISSION_MODES = ['explore', 'ask', 'auto', 'full'] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

export const RUN_STATUSES = ['running', 'waiting', 'completed', 'failed', 'cancelled', 'interrupted'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** A run or turn in one of these statuses still holds the session. */
export const ACTIVE_RUN_STATUSES: readonly RunStatus[] = ['running', 'waiting'];

export function isActiveStatus(status: RunStatus): boolean {
  return ACTIVE_RUN_STATUSES.includes(status);
}

/** What a session is doing, as the sidebar shows it: the status of its newest turn, or idle. */
export type SessionActivity = 'idle' | RunStatus;

export type RunKind = 'initial' | 'resume' | 'continuation';

export type TurnOrigin = 'user' | 'queued_message' | 'goal' | 'delegation' | 'subagent' | 'compaction';

export interface SessionRecord {
  readonly sessionId: string;
  readonly title: string;
  readonly titleSource: 'default' | 'auto' | 'user';
  readonly workspacePath: string | null;
  readonly connectionId: string;
  readonly model: string | null;
  readonly permissionMode: PermissionMode;
  readonly archived: boolean;
  readonly activity: SessionActivity;
  /** The session this one is a branch of (Edit, Regenerate, Rewind); null when it is not a branch or that session was deleted. */
  readonly branchOf: string | null;
  readonly revision: number;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/**
 * Failure classes of a run whose record could not be written (its terminal reason and error code):
 * the disk is full, or the database could not be written for another reason.
 */
export const STORAGE_FULL = 'storage_full';
export const STORAGE_FAILED = 'storage_failed';

export interface RunSummary {
  readonly runId: string;
  readonly attempt: number;
  readonly kind: RunKind;
  readonly status: RunStatus;
  /**
   * Why the run ended: a stop source (`stop_button`), a failure class (`provider_error`,
   * `app_restarted`, `storage_full`), or `end_turn`.
   */
  readonly terminalReason: string | null;
  /** The paired device whose Stop ended the run (its name then); absent when stopped on the desktop, and in older records. */
  readonly stoppedFrom?: string;
  readonly errorCode: string | null;
  readonly errorMessage: string | null;
  readonly startedAt: number;
  readonly endedAt: number | null;
}

export interface TurnSummary {
  readonly sessionId: string;
  readonly turnId: string;
  readonly origin: TurnOrigin;
  readonly text: string;
  readonly status: RunStatus;
  readonly maxSteps: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly latestRun: RunSummary;
  /** Tokens and cost of every model call in this turn; null before the first. */
  readonly usage: TurnUsage | null;
}

export interface TurnUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Null when the model's price is unknown. */
  readonly costUsd: number | null;
}

export interface TurnDetail extends TurnSummary {
  readonly runs: readonly RunSummary[];
}

export type TranscriptItemKind =
  'user_message' | 'assistant_message' | 'reasoning' | 'tool_call' | 'tool_result' | 'proposal' | 'notice';

/** One entry of the transcript: a projection of the ledger, ordered by `position` within a session. */
export interface TranscriptItem {
  readonly itemId: string;
  readonly sessionId: string;
  readonly turnId: string;
  readonly runId: string;
  readonly position: number;
  readonly kind: TranscriptItemKind;
  readonly text: string;
  /** `streaming` while deltas may still be appended; `final` once its run has moved on or ended. */
  readonly state: 'streaming' | 'final';
  /** Structured content: a tool call's `{ toolCallId, toolName, input }`, a tool result's `{ toolCallId, toolName, output, isError }`. */
  readonly data: Readonly<Record<string, unknown>> | null;
  readonly createdAt: number;
}

export interface TranscriptPage {
  readonly items: readonly TranscriptItem[];
  /** The turns the items belong to, so each can show its status. */
  readonly turns: readonly TurnSummary[];
  /** Pass as `before` to read the next older page; null when this page reaches the start. */
  readonly nextBefore: number | null;
  /** Pass as `after` to read the next newer page; null (or absent) when this page reaches the newest. */
  readonly nextAfter?: number | null;
}

export type QueuedMessageState = 'queued' | 'started' | 'cancelled';

export interface QueuedMessage {
  readonly sessionId: string;
  readonly messageId: string;
  readonly text: string;
  readonly state: QueuedMessageState;
  /** The turn this message became once it started (its id equals the message id). */
  readonly turnId: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** Files the follow-up carries into its turn; absent when it carries none. */
  readonly attachments?: readonly AttachmentRef[];
}

export interface HostInfo {
  readonly name: 'Cairn';
  readonly version: string;
  readonly protocol: number;
  readonly hostEpoch: string;
  readonly dataDir: string;
  readonly backends: readonly string[];
  /** The name windows show for this Cairn ("on workstation"): chosen in Settings → Devices, else the machine's. */
  readonly hostName: string;
  /** Whether agents' commands can run in the sandbox here (Auto mode), and if not, why and what to install. */
  readonly sandbox: SandboxStatus;
  /**
   * The launcher editors run as `node <acpLauncher> acp` to use this host's agent (bin/cairn.mjs of
   * the checkout it runs from); null where there is none (a packaged app).
   */
  readonly acpLauncher: string | null;
}

export interface SandboxStatus {
  readonly available: boolean;
  readonly reason: string | null;
}
