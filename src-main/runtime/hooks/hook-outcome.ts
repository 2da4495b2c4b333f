import type { HookProcessResult } from './hook-process';
import type { HookEventName } from './hook-settings';

/** What one hook's run says to Cairn, read from its exit code and output as Claude Code reads them. */
export interface HookVerdict {
  /** The hook blocked the step; the reason goes to the model (or, for a prompt, to the person). */
  readonly block: string | null;
  /** PreToolUse `allow` / PermissionRequest `allow`: the call runs without asking. */
  readonly allow: boolean;
  /** PreToolUse `ask`: the person is asked even where the mode would run the call. */
  readonly ask: boolean;
  /** Text added to what the model reads (UserPromptSubmit, SessionStart, PostToolUse `additionalContext`). */
  readonly context: string | null;
  /** A replacement input for the tool call (PreToolUse, PermissionRequest), in Claude Code's shape. */
  readonly updatedInput: Readonly<Record<string, unknown>> | null;
  /** `continue: false`: the turn ends here, with this reason. */
  readonly stop: string | null;
  /** The hook crashed, timed out or exited with an error other than 2: named, never silent. */
  readonly error: string | null;
  /** A line for the transcript: what the hook said (its message, stderr or stdout), trimmed. */
  readonly message: string;
}

type Json = Readonly<Record<string, unknown>>;

const CONTEXT_FROM_PLAIN_STDOUT: ReadonlySet<HookEventName> = new Set(['UserPromptSubmit', 'SessionStart']);

/**
 * Exit 0: go on (JSON on stdout may decide; plain stdout is context for UserPromptSubmit and
 * SessionStart). Exit 2: block, stderr is the reason. Any other exit, a crash or a timeout: an error
 * that blocks nothing (the caller applies the hook's `onError`).
 */
export function hookVerdict(event: HookEventName, result: HookProcessResult, timeoutSeconds: number): HookVerdict {
  const empty: HookVerdict = {
    block: null,
    allow: false,
    ask: false,
    context: null,
    updatedInput: null,
    stop: null,
    error: null,
    message: '',
  };
  const stderr = result.stderr.trim();
  const stdout = result.stdout.trim();
  if (result.failure === 'timeout') return { ...empty, error: `timed out after ${timeoutSeconds} s`, message: stderr };
  if (result.failure === 'stopped') return { ...empty, error: 'stopped', message: stderr };
  if (result.failure === 'spawn_failed') return { ...empty, error: `could not start: ${stderr}`, message: stderr };
  if (result.exitCode === 2)
    return { ...empty, block: stderr || 'blocked by a hook (exit 2, no message)', message: stderr };
  if (result.exitCode !== 0) {
    return { ...empty, error: `exited with code ${String(result.exitCode)}`, message: stderr || stdout };
  }
  const json = parseJsonObject(stdout);
  if (json === null) {
    const context = CONTEXT_FROM_PLAIN_STDOUT.has(event) && stdout !== '' ? stdout : null;
    return { ...empty, context, message: stdout };
  }
  return jsonVerdict(event, json, empty);
}

function jsonVerdict(event: HookEventName, json: Json, empty: HookVerdict): HookVerdict {
  const specific = isObject(json.hookSpecificOutput) ? json.hookSpecificOutput : {};
  const reason = text(json.reason);
  const systemMessage = text(json.systemMessage);
  let verdict: HookVerdict = {
    ...empty,
    context: text(specific.additionalContext),
    stop: json.continue === false ? (text(json.stopReason) ?? 'a hook ended the turn (continue: false)') : null,
    message: systemMessage ?? reason ?? '',
  };
  if (json.decision === 'block') verdict = { ...verdict, block: reason ?? 'blocked by a hook' };
  if (json.decision === 'approve') verdict = { ...verdict, allow: true };
  if (event === 'PreToolUse') {
    const decision = specific.permissionDecision;
    const why = text(specific.permissionDecisionReason);
    if (decision === 'deny') verdict = { ...verdict, block: why ?? reason ?? 'denied by a hook' };
    if (decision === 'allow') verdict = { ...verdict, allow: true };
    if (decision === 'ask') verdict = { ...verdict, ask: true };
    if (why !== null && verdict.message === '') verdict = { ...verdict, message: why };
    if (isObject(specific.updatedInput)) verdict = { ...verdict, updatedInput: specific.updatedInput };
  }
  if (event === 'PermissionRequest' && isObject(specific.decision)) {
    const { behavior, message, updatedInput } = specific.decision;
    if (behavior === 'allow') verdict = { ...verdict, allow: true };
    if (behavior === 'deny') verdict = { ...verdict, block: text(message) ?? 'denied by a hook' };
    if (isObject(updatedInput)) verdict = { ...verdict, updatedInput };
  }
  return verdict;
}

function parseJsonObject(text: string): Json | null {
  if (!text.startsWith('{')) return null;
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}
