/**
 * A hook's run as backends report it and the record keeps it: the contract between the person's hooks
 * (`hooks/`), the turns that record their runs and the backends that report them.
 */

/** The events a hook can be attached to, named as in Claude Code's settings. */
export const HOOK_EVENTS = [
  'SessionStart',
  'SessionEnd',
  'UserPromptSubmit',
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'Stop',
  'SubagentStop',
  'PreCompact',
  'Notification',
] as const;
export type HookEventName = (typeof HOOK_EVENTS)[number];

/** One hook's run, as the transcript and the ledger keep it (never its environment). */
export interface HookRunReport {
  readonly hookId: string;
  readonly event: HookEventName;
  readonly command: string;
  readonly matcher: string;
  readonly source: string;
  readonly exitCode: number | null;
  readonly durationMs: number;
  /** `blocked` (exit 2, or a decision), `error` (crash, timeout, another exit code), `ok`. */
  readonly outcome: 'ok' | 'blocked' | 'error';
  readonly message: string;
  readonly error: string | null;
  readonly onError: 'continue' | 'fail';
}
