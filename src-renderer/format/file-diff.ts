/**
 * Unified-diff text for the changes the workspace tools make, and the kind of each line for colouring.
 * The host writes the exact diff into an approval; the transcript only has the tool's input (and
 * result), so these diffs are built from that.
 */

export type DiffLineKind = 'add' | 'remove' | 'hunk' | 'context';

export interface DiffLine {
  readonly text: string;
  readonly kind: DiffLineKind;
}

const FILE_HEADER = /^(Index: |={10,}$|--- |\+\+\+ |diff |index )/;

/** The kind of a line of a diff's body (after its file header), for colouring. */
function bodyLineKind(line: string): DiffLineKind {
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'remove';
  return 'context';
}

/**
 * The lines worth showing of a one-file unified diff, each with its kind: its hunks, without the file
 * header before them (`Index:`, `=====`, `---`, `+++`), which repeats the path the view already shows
 * once. Only the leading header goes: a removed line that happens to start with "--" stays, as removed.
 */
export function diffBody(diff: string): DiffLine[] {
  const lines = diff.split('\n');
  let start = 0;
  while (start < lines.length && FILE_HEADER.test(lines[start]!)) {
    start += 1;
    if (lines[start - 1]!.startsWith('+++ ')) break;
  }
  return lines.slice(start).map((text) => ({ text, kind: bodyLineKind(text) }));
}

/** Lines added and removed by a unified diff (header lines not counted). */
export function diffCounts(diff: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of diffBody(diff)) {
    if (line.kind === 'add') added += 1;
    else if (line.kind === 'remove') removed += 1;
  }
  return { added, removed };
}

const record = (value: unknown): Readonly<Record<string, unknown>> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};

/**
 * The line counts a file tool's call shows in the transcript: those its result reports (the host
 * counts them as the approval diff and the Changes panel do), else those of a diff holding the whole
 * change (one the call carries, a new file's content, an edit's search and replacement, diffed line by
 * line). Null when the record cannot tell: a replaced file's earlier content is not in it.
 */
export function toolChangeCounts(
  toolName: string,
  input: unknown,
  output: unknown,
  diff: string | null,
): { added: number; removed: number } | null {
  const { added, removed } = record(output);
  if (typeof added === 'number' && typeof removed === 'number') return { added, removed };
  const fields = record(input);
  if (toolName === 'edit_file' && typeof fields.search === 'string' && typeof fields.replace === 'string')
    return lineDiffCounts(fields.search, fields.replace);
  if (diff === null) return null;
  if (typeof fields.diff === 'string') return diffCounts(diff);
  return toolName === 'write_file' && record(output).created === true ? diffCounts(diff) : null;
}

/**
 * Lines a line diff of `before` → `after` adds and removes (those not in their longest common
 * subsequence), as the host counts them; null past a size where that is not worth computing here.
 */
export function lineDiffCounts(before: string, after: string): { added: number; removed: number } | null {
  const a = before.split('\n');
  const b = after.split('\n');
  if (a.length * b.length > 4_000_000) return null;
  let previous = new Array<number>(b.length + 1).fill(0);
  for (const line of a) {
    const current = new Array<number>(b.length + 1).fill(0);
    for (let j = 0; j < b.length; j += 1)
      current[j + 1] = line === b[j] ? previous[j]! + 1 : Math.max(previous[j + 1]!, current[j]!);
    previous = current;
  }
  const common = previous[b.length]!;
  const lines = (text: string, parts: string[]) => (text === '' ? 0 : parts.length);
  return {
    added: lines(after, b) - (after === '' ? 0 : common),
    removed: lines(before, a) - (before === '' ? 0 : common),
  };
}

function linesOf(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

const header = (path: string, from: string) => [`--- ${from}`, `+++ b/${path}`];

/** edit_file's search and replace as removed and added lines. */
export function editFileDiff(path: string, search: string, replace: string): string {
  const removed = linesOf(search);
  const added = linesOf(replace);
  // No hunk header: where in the file the text sits is not in the record.
  return [...header(path, `a/${path}`), ...removed.map((line) => `-${line}`), ...added.map((line) => `+${line}`)].join(
    '\n',
  );
}

/** write_file's content as added lines: a new file, or (`replaced`) a whole file whose earlier content the record does not hold. */
export function writeFileDiff(path: string, content: string, replaced: boolean): string {
  const added = linesOf(content);
  const hunk = replaced ? [] : [`@@ -0,0 +1,${added.length} @@`];
  return [...header(path, replaced ? `a/${path}` : '/dev/null'), ...hunk, ...added.map((line) => `+${line}`)].join(
    '\n',
  );
}
