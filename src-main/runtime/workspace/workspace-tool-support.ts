import type { z } from 'zod';
import type { PermissionMode } from '../../../src-shared/model';
import { isRunLaterFile, mayWriteRunLater, runLaterRefusal } from '../sandbox/run-later-files';
import type { ToolContext, ToolPreview } from '../contract/agent-tool';
import type { ResolvedWorkspacePath } from './workspace-paths';

/** What a tool that changes something would do, for an approval prompt (see `AgentTool.preview`). */
export type ChangePreview = ToolPreview;

/** Options every workspace tool factory takes: the session's workspace folder. */
export interface WorkspaceToolOptions {
  /** The workspace folder. Its real path is taken afresh on every call. */
  readonly root: string;
  /**
   * For tests: runs after a listing tool resolved its folder and before it reads it, so a test can
   * swap the folder for a link in exactly that window (the rename race).
   */
  readonly beforeWalk?: (resolvedFolder: string) => Promise<void> | void;
  /**
   * The session's permission mode now, for the writing tools' rule on files that make code run later
   * (`run-later-files.ts`); without it, such a write goes through only when approved on its card.
   */
  readonly modeOf?: (sessionId: string) => PermissionMode;
}

/** Why a writing tool may not write `target` now (a file that makes code run later), or null. */
export async function runLaterRefusalFor(
  options: WorkspaceToolOptions,
  target: ResolvedWorkspacePath,
  context: ToolContext,
): Promise<string | null> {
  if (!(await isRunLaterFile(target.root, target.absolute))) return null;
  const mode = options.modeOf?.(context.sessionId) ?? 'ask';
  return mayWriteRunLater(mode, context.approved === true) ? null : runLaterRefusal(target.relative, mode);
}

/** Decodes a tool input with a strict zod schema, or says (for the model) what is wrong with it. */
export function parseToolInput<T>(
  toolName: string,
  schema: z.ZodType<T>,
  input: unknown,
): { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string } {
  const parsed = schema.safeParse(input);
  if (parsed.success) return { ok: true, value: parsed.data };
  const problems = parsed.error.issues.map((issue) =>
    issue.path.length === 0 ? issue.message : `"${issue.path.join('.')}": ${issue.message}`,
  );
  return { ok: false, message: `The input to ${toolName} is not valid: ${problems.join('; ')}.` };
}

/** True for content that is not text: a NUL byte in its first 8,000 bytes (as git decides). */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8000).includes(0);
}

/** Keeps the first `max` characters of a line, marking the cut. */
export function clipLine(line: string, max: number): string {
  return line.length <= max ? line : `${line.slice(0, max)}… [line cut at ${max} characters]`;
}

/** Counts the non-overlapping occurrences of `search` in `text`. */
export function countOccurrences(text: string, search: string): number {
  if (search === '') return 0;
  let count = 0;
  for (let at = text.indexOf(search); at !== -1; at = text.indexOf(search, at + search.length)) count += 1;
  return count;
}
