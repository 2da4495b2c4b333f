import { createTwoFilesPatch, diffLines } from 'diff';
import { readConfined } from './workspace-files';
import type { ResolvedWorkspacePath } from './workspace-paths';
import type { ToolPreview } from '../contract/agent-tool';
import { looksBinary } from './workspace-tool-support';

/** The largest file write_file replaces or edit_file edits (and diffs for an approval). */
export const MAX_CHANGE_BYTES = 10 * 1024 * 1024;
/** The most of a diff an approval prompt carries. */
export const MAX_DIFF_CHARS = 200_000;

/** A planned file change: the resolved target, its text now (null: it does not exist) and after. */
export interface FileChangePlan {
  readonly target: ResolvedWorkspacePath;
  readonly before: string | null;
  readonly after: string;
}

export type CurrentText =
  | { readonly ok: true; readonly text: string | null; readonly binaryBytes: number | null }
  | { readonly ok: false; readonly message: string };

/** The file's current text (null when it does not exist yet), or its size when it is binary. */
export async function readCurrentText(target: ResolvedWorkspacePath): Promise<CurrentText> {
  if (!target.exists) return { ok: true, text: null, binaryBytes: null };
  const read = await readConfined(target, MAX_CHANGE_BYTES);
  if (!read.ok) return read;
  if (looksBinary(read.bytes)) return { ok: true, text: null, binaryBytes: read.bytes.byteLength };
  return { ok: true, text: read.bytes.toString('utf8'), binaryBytes: null };
}

/** How many lines an editor shows for `text`: a final newline ends the last line rather than starting one. */
export function lineCount(text: string): number {
  if (text === '') return 0;
  const breaks = text.split('\n').length - 1;
  return text.endsWith('\n') ? breaks : breaks + 1;
}

/** The most a write spends counting its lines (a huge rewrite's count is left out rather than slowing the turn). */
const COUNT_TIMEOUT_MS = 500;

/**
 * Lines a change adds and removes, counted on a line diff of the text before and after: the diff an
 * approval shows (the same diff algorithm), and what git's numstat counts in the Changes panel; a line
 * whose final newline changes counts as removed and added, as there. Null when the diff takes too long.
 */
export function lineChanges(before: string | null, after: string): { added: number; removed: number } | null {
  if (before === null || before === '') return { added: lineCount(after), removed: 0 };
  const parts = diffLines(before, after, { timeout: COUNT_TIMEOUT_MS });
  if (parts === undefined) return null;
  let added = 0;
  let removed = 0;
  for (const part of parts) {
    if (part.added) added += part.count;
    else if (part.removed) removed += part.count;
  }
  return { added, removed };
}

/** A unified diff of the change (git-style a/ b/ names; /dev/null for a new file), bounded. */
export function unifiedDiff(relative: string, before: string | null, after: string): string {
  const patch = createTwoFilesPatch(
    before === null ? '/dev/null' : `a/${relative}`,
    `b/${relative}`,
    before ?? '',
    after,
    undefined,
    undefined,
    {
      context: 3,
      timeout: 2000,
    },
  );
  if (patch === undefined) {
    return `The change to ${relative} is too large to diff quickly: ${lineCount(before ?? '')} lines become ${lineCount(after)} lines.`;
  }
  return patch.length <= MAX_DIFF_CHARS
    ? patch
    : `${patch.slice(0, MAX_DIFF_CHARS)}\n… [diff cut at ${MAX_DIFF_CHARS} characters]`;
}

/** What a planned change would do, for an approval prompt: its unified diff, or why it would be refused. */
export function previewOfPlan(planned: FileChangePlan | { readonly message: string }): ToolPreview {
  if ('message' in planned) return { kind: 'invalid', message: planned.message };
  return {
    kind: 'diff',
    path: planned.target.relative,
    diff: unifiedDiff(planned.target.relative, planned.before, planned.after),
  };
}
