import { unifiedDiff } from '../../workspace/file-change';
import type { FileChangeItem } from './codex-protocol';

type Change = FileChangeItem['changes'][number];

/**
 * A change as a unified diff. Codex sends an update as a unified diff already, but a new file (or a
 * deleted one) as its whole text: that becomes `+` lines (or `-` lines), as write_file shows it.
 */
function changeDiff(change: Change): string {
  if (change.kind.type === 'add') return unifiedDiff(change.path, null, change.diff);
  if (change.kind.type === 'delete') return unifiedDiff(change.path, change.diff, '');
  return change.diff;
}

/** What the change does to its files, for a person: "Create notes.md", "Delete old.txt", "Edit app.ts (and 2 more files)". */
export function fileChangeSummary(item: FileChangeItem): string {
  const first = item.changes[0];
  if (first === undefined) return 'Edit files';
  const kinds = new Set(item.changes.map((change) => change.kind.type));
  const verb =
    kinds.size === 1 && kinds.has('add') ? 'Create' : kinds.size === 1 && kinds.has('delete') ? 'Delete' : 'Edit';
  const more = item.changes.length - 1;
  return `${verb} ${first.path}${more === 0 ? '' : ` (and ${more} more file${more === 1 ? '' : 's'})`}`.slice(0, 500);
}

/** The tool input a Codex file change is shown with: the first path, every change's diff, the files. */
export function fileChangeInput(item: FileChangeItem): Record<string, unknown> {
  return {
    path: item.changes[0]?.path ?? '',
    diff: item.changes.map(changeDiff).join('\n'),
    files: item.changes.map((change) => change.path),
  };
}
