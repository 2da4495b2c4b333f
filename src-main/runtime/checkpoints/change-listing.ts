import type {
  ChangeSetRecord,
  ChangeWriter,
  FileChangeRecord,
  ListedFileChange,
} from '../../../src-shared/checkpoint-model';

/** A page of files as listed: each distinct writer once, each file naming its writer by index. */
export function listedFiles(records: readonly FileChangeRecord[]): {
  files: ListedFileChange[];
  writers: ChangeWriter[];
} {
  const writers: ChangeWriter[] = [];
  const indexes = new Map<string, number>();
  const files = records.map(({ writer, ...file }) => {
    const key =
      writer.kind === 'command'
        ? `command:${writer.command}`
        : writer.kind === 'file_tool'
          ? `tool:${writer.tool}`
          : writer.kind;
    let index = indexes.get(key);
    if (index === undefined) {
      index = writers.push(writer) - 1;
      indexes.set(key, index);
    }
    return { ...file, writer: index };
  });
  return { files, writers };
}

type Listed = Pick<ChangeSetRecord, 'changeSetId' | 'revertsChangeSetId' | 'status'>;

/** How deep a chain of reverts of reverts is followed. */
const MAX_DEPTH = 50;

/**
 * For each listed change set, the files a later listed change set put back: a complete revert of it
 * that is not itself undone for that file (a turn's revert, a revert's or a rewind's undo, an undo's
 * redo). Only change sets something reverts read their paths (`pathsOf`), so a listing without
 * reverts reads none. Judged among the listed change sets only, as the Changes panel names them.
 */
export function undoneFiles(
  changeSets: readonly Listed[],
  pathsOf: (changeSetId: string) => readonly string[],
): Map<string, ReadonlySet<string>> {
  const revertsOf = new Map<string, string[]>();
  const listed = new Set(changeSets.map((changeSet) => changeSet.changeSetId));
  for (const changeSet of changeSets) {
    const target = changeSet.revertsChangeSetId;
    if (changeSet.status !== 'complete' || target === null || !listed.has(target)) continue;
    revertsOf.set(target, [...(revertsOf.get(target) ?? []), changeSet.changeSetId]);
  }
  const paths = new Map<string, readonly string[]>();
  const pathsCached = (changeSetId: string) => {
    let known = paths.get(changeSetId);
    if (known === undefined) {
      known = pathsOf(changeSetId);
      paths.set(changeSetId, known);
    }
    return known;
  };
  const undone = new Map<string, ReadonlySet<string>>();
  const undoneOf = (changeSetId: string, depth: number): ReadonlySet<string> => {
    const known = undone.get(changeSetId);
    if (known !== undefined) return known;
    const reverts = revertsOf.get(changeSetId);
    const found = new Set<string>();
    if (reverts !== undefined && depth < MAX_DEPTH) {
      const own = new Set(pathsCached(changeSetId));
      for (const revert of reverts) {
        const revertUndone = undoneOf(revert, depth + 1);
        for (const path of pathsCached(revert)) if (own.has(path) && !revertUndone.has(path)) found.add(path);
      }
    }
    undone.set(changeSetId, found);
    return found;
  };
  for (const changeSet of changeSets) undoneOf(changeSet.changeSetId, 0);
  return undone;
}

/** `undone` as listed: `all` when every one of the change set's files was put back, else those that were. */
export function listedUndone(undone: ReadonlySet<string> | undefined, fileCount: number): 'all' | string[] {
  if (undone === undefined || undone.size === 0) return [];
  return undone.size >= fileCount ? 'all' : [...undone].sort();
}
