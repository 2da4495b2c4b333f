import type { InteractionRequest } from '../../../src-shared/interaction-model';

/** A tool the built-in agent can call. Its input is validated before it runs; its result goes back to the model. */
export interface AgentTool {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the input object, as the model sees it. */
  readonly inputSchema: Readonly<Record<string, unknown>>;
  /** True when the tool changes nothing (offered in every permission mode). */
  readonly readOnly: boolean;
  execute(input: unknown, context: ToolContext): Promise<ToolOutcome | ToolSuspension>;
  /** For a tool that changes something: exactly what it would do, for an approval prompt. */
  preview?(input: unknown): Promise<ToolPreview>;
}

export type ToolPreview =
  | { readonly kind: 'diff'; readonly path: string; readonly diff: string }
  | { readonly kind: 'command'; readonly command: string; readonly cwd: string }
  | { readonly kind: 'mcp'; readonly server: string; readonly tool: string; readonly arguments: string }
  | { readonly kind: 'invalid'; readonly message: string };

export interface ToolContext {
  readonly sessionId: string;
  /** The call being run, when the caller knows it (tools that keep records refer to it). */
  readonly toolCallId?: string;
  readonly turnId: string;
  readonly runId: string;
  /** The person approved this very call on its card (not a session grant, not a mode that runs unasked). */
  readonly approved?: boolean;
  /** The person approved this call to run once outside the sandbox. */
  readonly unsandboxed?: boolean;
  readonly now: () => number;
  readonly signal: AbortSignal;
}

export interface ToolOutcome {
  readonly output: unknown;
  readonly isError: boolean;
}

/** The tool needs the person: the run waits (holding nothing in memory) until they answer. */
export interface ToolSuspension {
  readonly suspend: InteractionRequest;
}

export function isSuspension(outcome: ToolOutcome | ToolSuspension): outcome is ToolSuspension {
  return 'suspend' in outcome;
}

export function toolError(message: string): ToolOutcome {
  return { output: { error: message }, isError: true };
}
