import type { InteractionRequest } from '../../../src-shared/interaction-model';
import type { RunKind, RunStatus } from '../../../src-shared/model';
import type { RunProgress } from '../../../src-shared/run-progress';
import type { HookRunReport } from './hook-run';

/** A message of the conversation so far, as a backend reads it. */
export interface HistoryMessage {
  readonly role: 'user' | 'assistant' | 'reasoning' | 'tool_call' | 'tool_result';
  readonly text: string;
  readonly turnId: string;
  readonly runId: string;
  /** For tool calls and results: `{ toolCallId, toolName, input }` / `{ toolCallId, toolName, output, isError }`. */
  readonly data: Readonly<Record<string, unknown>> | null;
}

export interface AgentRunInput {
  readonly sessionId: string;
  readonly turnId: string;
  readonly runId: string;
  readonly runKind: RunKind;
  /** The session's connection and model (null: the connection's default). */
  readonly connectionId: string;
  /** The person's request this turn answers. */
  readonly text: string;
  readonly model: string | null;
  readonly maxSteps: number;
  /**
   * The conversation before this run, oldest first, including what earlier runs of this turn said; the
   * text of earlier turns' messages is cut to their first 4,000 characters, their tool results carry no
   * output, and long strings in their tool calls' input are cut (turns/run-history.ts).
   */
  readonly history: readonly HistoryMessage[];
  /** A tool call the person approved while the previous run waited: run it first. */
  /** `unsandboxed`: the person chose "Run once without sandbox" for this call. */
  readonly approvedToolCall: {
    readonly toolCallId: string;
    readonly toolName: string;
    readonly input: unknown;
    readonly unsandboxed?: boolean;
  } | null;
  /** Set when this run continues a turn whose previous run did not finish. */
  readonly resume: {
    readonly previousRunId: string;
    readonly previousStatus: RunStatus;
    readonly reason: string | null;
  } | null;
}

/** What a backend reports while it works. The runtime records each in the ledger, in order. */
export type AgentEvent =
  | { readonly type: 'step_started' }
  /** The step waits on its provider (a request out, or a retry scheduled); null once the answer flows. */
  | { readonly type: 'provider_wait'; readonly progress: RunProgress | null }
  | { readonly type: 'text_delta'; readonly text: string }
  | { readonly type: 'reasoning_delta'; readonly text: string }
  | { readonly type: 'tool_call'; readonly toolCallId: string; readonly toolName: string; readonly input: unknown }
  | {
      readonly type: 'tool_result';
      readonly toolCallId: string;
      readonly toolName: string;
      readonly output: unknown;
      readonly isError: boolean;
    }
  | ({ readonly type: 'usage' } & UsageReport)
  /** One of the person's hooks ran at a step of the run (recorded as a notice, attributed to the tool call). */
  | {
      readonly type: 'hook_run';
      readonly report: HookRunReport;
      readonly toolCallId?: string;
      /** What the model reads from it (feedback of a PostToolUse hook), if anything. */
      readonly modelText?: string | null;
    }
  /**
   * A tool call that needs the person (ask_user). The backend's stream ends here; the runtime records
   * the call and the pending interaction, and the run waits. The answer continues the turn in a new run.
   */
  | {
      readonly type: 'interaction_requested';
      readonly toolCallId: string;
      readonly toolName: string;
      readonly input: unknown;
      readonly request: InteractionRequest;
    };

/** One model call's usage, as the runtime records it. */
export interface UsageReport {
  readonly model: string;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cachedInputTokens: number;
  readonly reasoningTokens: number;
  readonly latencyMs: number;
  /** Null when the model's price is unknown. */
  readonly costUsd: number | null;
}

/**
 * What runs a turn. The runtime reads the stream one event at a time and owns everything durable;
 * a backend that ignores `signal` cannot keep the run alive: Stop settles the run without it.
 */
export interface AgentBackend {
  readonly id: string;
  run(input: AgentRunInput, signal: AbortSignal): AsyncIterable<AgentEvent>;
}

/** A failure the backend understands (a provider error); anything else thrown is a bug. */
export class AgentBackendError extends Error {
  constructor(
    /** The provider's code, e.g. `rate_limited` or `bad_key`. */
    readonly code: string,
    message: string,
    /** The run's failure class, recorded as its terminal reason. */
    readonly failureClass: string = 'provider_error',
  ) {
    super(message);
    this.name = 'AgentBackendError';
  }
}
