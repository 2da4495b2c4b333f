/** The person's hooks as Settings → Hooks shows them. */

export type HookSourceKind = 'global' | 'claude_user' | 'workspace';

export interface HookEntry {
  readonly id: string;
  readonly event: string;
  readonly matcher: string;
  readonly command: string;
  readonly timeoutSeconds: number;
  readonly onError: 'continue' | 'fail';
  readonly sourceKind: HookSourceKind;
  readonly sourcePath: string;
  readonly enabled: boolean;
  /** False for a workspace file's hook until the person trusts that file as it is now. */
  readonly trusted: boolean;
}

export interface HookList {
  readonly hooks: readonly HookEntry[];
  /** Files that could not be read as hooks (the message names the file and the line): none of their hooks run. */
  readonly errors: readonly { readonly path: string; readonly message: string }[];
  /** Workspace files whose hooks wait for trust; `hash` is what `hooks.trust` takes. */
  readonly untrusted: readonly { readonly path: string; readonly hash: string; readonly count: number }[];
  readonly skipped: readonly string[];
  /** Cairn's own hooks file, in the data directory. */
  readonly globalFile: string;
  readonly useClaudeUserSettings: boolean;
}

/** One run of a hook with a sample event (Settings → Hooks → Test). */
export interface HookTestResult {
  readonly exitCode: number | null;
  readonly outcome: 'ok' | 'blocked' | 'error';
  readonly message: string;
  readonly error: string | null;
  readonly durationMs: number;
}
