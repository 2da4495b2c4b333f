import type { FileDiff } from '../../../src-shared/checkpoint-model';

/** The most of one file's diff `changes.diff` answers. */
const MAX_DIFF_CHARS = 100_000;

/** One file's diff as `changes.diff` answers it: from its `---` line on, cut at 100,000 characters (saying so). */
export function shownDiff(gitDiff: string): FileDiff {
  const diff = trimGitHeader(gitDiff);
  return diff.length > MAX_DIFF_CHARS
    ? { diff: `${diff.slice(0, MAX_DIFF_CHARS)}\n… [diff cut at ${MAX_DIFF_CHARS} characters]`, cut: true }
    : { diff, cut: false };
}

/** A unified diff from its `---` line on (git's `diff --git`, mode and index lines left out), without the last newline. */
function trimGitHeader(diff: string): string {
  const start = diff.search(/^--- /m);
  return (start === -1 ? diff : diff.slice(start)).replace(/\n$/, '');
}
