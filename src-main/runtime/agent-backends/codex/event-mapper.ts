import type { AgentEvent } from '../../contract/agent-backend';
import {
  deltaNotificationSchema,
  errorNotificationSchema,
  itemNotificationSchema,
  tokenUsageNotificationSchema,
  turnCompletedSchema,
  type CommandItem,
  type FileChangeItem,
} from './codex-protocol';
import { fileChangeInput } from './file-change-view';

/** Tool names a Codex item is shown under: the renderer's shell and patch views. */
export const CODEX_SHELL_TOOL = 'run_shell';
export const CODEX_PATCH_TOOL = 'apply_patch';

export type TurnEnd =
  { readonly status: 'completed' | 'interrupted' } | { readonly status: 'failed'; readonly message: string };

/** What one notification means for the run: ledger events, and whether the Codex turn ended. */
export interface Mapped {
  readonly events: AgentEvent[];
  readonly end: TurnEnd | null;
}

/** What a finished Codex turn did, for its structured result. */
export interface TurnFacts {
  finalMessage: string;
  readonly commands: { command: string; exitCode: number | null; status: string }[];
  readonly filesChanged: Set<string>;
  inputTokens: number;
  outputTokens: number;
}

/**
 * Maps app-server notifications of one Codex turn onto agent events: agent text and reasoning deltas,
 * command executions as `run_shell` tool lines (output and exit code), file changes as `apply_patch`
 * tool lines (their diff), token usage. A tool line is recorded when the item first shows output or
 * completes, so an approval for it can record the call itself; calls recorded elsewhere (approved or
 * answered through an interaction) are marked and not recorded twice.
 */
export class EventMapper {
  private readonly started = new Map<string, CommandItem | FileChangeItem>();
  private readonly recordedCalls = new Set<string>();
  private readonly settledCalls = new Set<string>();
  private readonly streamedMessages = new Set<string>();
  private lastError: string | null = null;
  /** The HTTP status behind Codex's last error (from its `codexErrorInfo`), and how many attempts Codex made. */
  private httpStatus: number | null = null;
  private attempts = 1;
  readonly facts: TurnFacts = {
    finalMessage: '',
    commands: [],
    filesChanged: new Set(),
    inputTokens: 0,
    outputTokens: 0,
  };

  constructor(
    /** The Codex turn this mapper reads. */
    readonly turnId: string,
    private readonly model: string,
    /** Whether a command shows as soon as Codex starts it: true when Codex asks no approvals (none can be declined). */
    private readonly commandsAtStart = false,
  ) {}

  /** The call was recorded by an interaction (the approval card); its result is still to come. */
  markRecorded(itemId: string): void {
    this.recordedCalls.add(itemId);
  }

  /** The call's result was recorded by an interaction (a denial); Codex's own completion is not recorded again. */
  markSettled(itemId: string): void {
    this.settledCalls.add(itemId);
  }

  /** The turn ended with commands Codex started and never finished: they count in its result as `status`. */
  closeOpenCommands(status: string): void {
    for (const item of this.started.values()) {
      if (item.type !== 'commandExecution' || this.settledCalls.has(item.id)) continue;
      this.settledCalls.add(item.id);
      this.facts.commands.push({ command: item.command, exitCode: null, status });
    }
  }

  /** The item an approval is about, as Codex announced it. */
  itemOf(itemId: string): CommandItem | FileChangeItem | null {
    return this.started.get(itemId) ?? null;
  }

  map(method: string, params: unknown): Mapped {
    const none: Mapped = { events: [], end: null };
    switch (method) {
      case 'item/agentMessage/delta': {
        const delta = deltaNotificationSchema.safeParse(params);
        if (!delta.success || delta.data.turnId !== this.turnId) return none;
        this.streamedMessages.add(delta.data.itemId);
        return { events: [{ type: 'text_delta', text: delta.data.delta }], end: null };
      }
      case 'item/reasoning/textDelta':
      case 'item/reasoning/summaryTextDelta': {
        const delta = deltaNotificationSchema.safeParse(params);
        if (!delta.success || delta.data.turnId !== this.turnId) return none;
        return { events: [{ type: 'reasoning_delta', text: delta.data.delta }], end: null };
      }
      case 'item/commandExecution/outputDelta': {
        const delta = deltaNotificationSchema.safeParse(params);
        if (!delta.success || delta.data.turnId !== this.turnId) return none;
        return { events: this.callOnce(delta.data.itemId), end: null };
      }
      case 'item/started':
      case 'item/completed':
        return { events: this.item(method === 'item/completed', params), end: null };
      case 'thread/tokenUsage/updated': {
        const usage = tokenUsageNotificationSchema.safeParse(params);
        if (!usage.success || usage.data.turnId !== this.turnId) return none;
        const last = usage.data.tokenUsage.last;
        this.facts.inputTokens += last.inputTokens;
        this.facts.outputTokens += last.outputTokens;
        const event: AgentEvent = {
          type: 'usage',
          model: this.model,
          inputTokens: last.inputTokens,
          outputTokens: last.outputTokens,
          cachedInputTokens: last.cachedInputTokens,
          reasoningTokens: last.reasoningOutputTokens,
          latencyMs: 0,
          costUsd: null,
        };
        return { events: [event], end: null };
      }
      case 'error': {
        const error = errorNotificationSchema.safeParse(params);
        if (!error.success) return none;
        const status = httpStatusOf(error.data.error.codexErrorInfo);
        if (status !== null) this.httpStatus = status;
        if (error.data.willRetry === true) this.attempts += 1;
        else this.lastError = error.data.error.message;
        return none;
      }
      case 'turn/completed': {
        const completed = turnCompletedSchema.safeParse(params);
        if (!completed.success || completed.data.turn.id !== this.turnId) return none;
        const { status, error } = completed.data.turn;
        if (status === 'failed')
          return {
            events: [],
            end: {
              status: 'failed',
              message: this.failure(error?.message ?? this.lastError ?? 'Codex reported the turn failed.'),
            },
          };
        return { events: [], end: { status: status === 'interrupted' ? 'interrupted' : 'completed' } };
      }
      default:
        return none;
    }
  }

  /** Codex's own words for a failed turn, after what the model server really answered when Codex says. */
  private failure(said: string): string {
    if (this.httpStatus === null) return said;
    const attempts = `${this.attempts} attempt${this.attempts === 1 ? '' : 's'}`;
    return `The model server answered ${this.httpStatus} (${attempts} made). Codex says: ${said}`;
  }

  private item(completed: boolean, params: unknown): AgentEvent[] {
    const parsed = itemNotificationSchema.safeParse(params);
    if (!parsed.success || parsed.data.turnId !== this.turnId) return [];
    const item = parsed.data.item;
    if (item.type === 'agentMessage' && 'text' in item && typeof item.text === 'string') {
      if (!completed) return [];
      this.facts.finalMessage = item.text;
      // A message that arrived whole (no deltas) is recorded whole.
      return this.streamedMessages.has(item.id) || item.text === '' ? [] : [{ type: 'text_delta', text: item.text }];
    }
    if (item.type !== 'commandExecution' && item.type !== 'fileChange') return [];
    const known = item as CommandItem | FileChangeItem;
    this.started.set(known.id, known);
    if (!completed) return this.commandsAtStart && known.type === 'commandExecution' ? this.callOnce(known.id) : [];
    const events = this.callOnce(known.id);
    if (this.settledCalls.has(known.id)) return events;
    this.settledCalls.add(known.id);
    if (known.type === 'commandExecution') {
      this.facts.commands.push({ command: known.command, exitCode: known.exitCode ?? null, status: known.status });
      const output = {
        status: known.status,
        exitCode: known.exitCode ?? null,
        stdout: known.aggregatedOutput ?? '',
        durationMs: known.durationMs ?? null,
      };
      events.push({
        type: 'tool_result',
        toolCallId: known.id,
        toolName: CODEX_SHELL_TOOL,
        output,
        isError: !(known.status === 'completed' && known.exitCode === 0),
      });
    } else {
      if (known.status === 'completed') for (const change of known.changes) this.facts.filesChanged.add(change.path);
      const output = { status: known.status, files: known.changes.map((change) => change.path) };
      events.push({
        type: 'tool_result',
        toolCallId: known.id,
        toolName: CODEX_PATCH_TOOL,
        output,
        isError: known.status !== 'completed',
      });
    }
    return events;
  }

  private callOnce(itemId: string): AgentEvent[] {
    if (this.recordedCalls.has(itemId)) return [];
    const item = this.started.get(itemId);
    if (item === undefined) return [];
    this.recordedCalls.add(itemId);
    return [{ type: 'tool_call', ...callOf(item) }];
  }
}

/** How a Codex item reads as a Cairn tool call. */
export function callOf(item: CommandItem | FileChangeItem): {
  toolCallId: string;
  toolName: string;
  input: Record<string, unknown>;
} {
  if (item.type === 'commandExecution')
    return { toolCallId: item.id, toolName: CODEX_SHELL_TOOL, input: { command: item.command, cwd: item.cwd } };
  return { toolCallId: item.id, toolName: CODEX_PATCH_TOOL, input: fileChangeInput(item) };
}

/** Codex's error classes that stand for an HTTP status; a variant that carries `httpStatusCode` gives it. */
const STATUS_OF_CLASS: Readonly<Record<string, number>> = {
  internalServerError: 500,
  unauthorized: 401,
  badRequest: 400,
  rateLimitExceeded: 429,
  serverOverloaded: 503,
};

function httpStatusOf(info: unknown): number | null {
  if (typeof info === 'string') return STATUS_OF_CLASS[info] ?? null;
  if (typeof info !== 'object' || info === null) return null;
  for (const detail of Object.values(info)) {
    const code: unknown =
      typeof detail === 'object' && detail !== null && 'httpStatusCode' in detail ? detail.httpStatusCode : null;
    if (typeof code === 'number') return code;
  }
  return null;
}
