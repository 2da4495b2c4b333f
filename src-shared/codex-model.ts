/**
 * What one Codex turn did, as a record WorkHub, goals and clients read instead of parsing text: its
 * status, final message, files changed, commands with exit codes, tokens.
 */
export interface CodexTurnResult {
  readonly codexTurnId: string;
  readonly sessionId: string;
  readonly turnId: string;
  readonly runId: string;
  readonly status: 'completed' | 'interrupted' | 'failed';
  readonly finalMessage: string;
  readonly filesChanged: readonly string[];
  readonly commands: readonly { readonly command: string; readonly exitCode: number | null; readonly status: string }[];
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly errorMessage: string | null;
  /** The validated structured answer, when the turn asked for one (a WorkHub delegation); null otherwise. */
  readonly structured: StructuredAnswer | null;
  readonly createdAt: number;
}

/**
 * A Codex session whose app-server could not be confirmed gone after Stop or a failure: no new turn
 * starts a second app-server on its thread until Force stop confirms the old one gone.
 */
export interface CodexQuarantine {
  readonly sessionId: string;
  readonly pid: number | null;
  readonly message: string;
}

/** A delegation's answer: done, needs the person, or blocked. An invalid answer is kept as such. */
export type StructuredAnswer =
  | {
      readonly valid: true;
      readonly value: { readonly outcome: 'done' | 'needs_input' | 'blocked'; readonly summary: string };
    }
  | { readonly valid: false; readonly problem: string };

/** What the person chose for a Codex thread that could not be resumed. */
export type CodexThreadChoice = 'new_thread' | 'retry';

/**
 * A Codex session whose thread could not be resumed (its rollout missing or damaged, Codex not
 * answering, or the thread not this session's): Cairn never moves it to a new thread on its own.
 * The person chooses: a new thread that starts from a summary of Cairn's record, or retry.
 */
export interface CodexThreadProblem {
  readonly sessionId: string;
  readonly threadId: string;
  /** The turn that failed on it (retried, or run on the new thread, when the person chooses). */
  readonly turnId: string;
  /** What was missing or damaged, in Codex's words where it gave some. */
  readonly reason: string;
  readonly noticedAt: number;
  readonly choice: CodexThreadChoice | null;
  readonly chosenAt: number | null;
  /** True once the new thread started (the choice is kept for the record). */
  readonly resolved: boolean;
}
