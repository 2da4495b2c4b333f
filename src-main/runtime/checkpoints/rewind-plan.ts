import type { RewindFileAction } from '../../../src-shared/checkpoint-model';
import type { StoredChangeSet } from '../../storage/checkpoint-store';
import type { ShadowRepo, TreeEntry } from './shadow-git';

/** One path a rewind puts back: to its state before the first change set that touched it, from the state the last one left. */
export interface RewindPath {
  readonly path: string;
  /** The checkpoint holding the path as it was before the rewound turns. */
  readonly before: string;
  /** The checkpoint holding the path as the rewound turns (and reverts among them) left it. */
  readonly after: string;
}

/**
 * The paths the change sets of the rewound turns touched, oldest change set first. Going back through
 * each change set newest first ends where this goes in one step: each path at its first `before`.
 */
export function rewindPaths(changeSets: readonly StoredChangeSet[]): RewindPath[] {
  const paths = new Map<string, { before: string; after: string }>();
  for (const changeSet of changeSets) {
    if (changeSet.beforeCommit === null || changeSet.afterCommit === null)
      throw new Error(`Change set ${changeSet.changeSetId} is not complete`);
    for (const file of changeSet.files) {
      const known = paths.get(file.path);
      if (known === undefined) paths.set(file.path, { before: changeSet.beforeCommit, after: changeSet.afterCommit });
      else known.after = changeSet.afterCommit;
    }
  }
  return [...paths].map(([path, ends]) => ({ path, ...ends }));
}

const same = (a: TreeEntry | undefined, b: TreeEntry | undefined) =>
  a === undefined ? b === undefined : b !== undefined && a.mode === b.mode && a.oid === b.oid;

export interface RewindComparison {
  /** The paths not yet as before the rewound turns. */
  readonly pending: RewindPath[];
  /** Those of `pending` someone changed since the rewound turns. */
  readonly conflicts: RewindPath[];
  /** What putting each pending path back does to the workspace, by path. */
  readonly actions: ReadonlyMap<string, RewindFileAction>;
}

/** What putting a path back does: remove it (absent before), bring it back (absent now), or rewrite it. */
export function rewindAction(now: TreeEntry | undefined, before: TreeEntry | undefined): RewindFileAction {
  if (before === undefined) return 'delete';
  return now === undefined ? 'create' : 'change';
}

/** Which paths are not yet back (pending), which of those someone changed since the rewound turns (conflicts), and what each would take, against `now`. */
export async function compareForRewind(
  repo: ShadowRepo,
  paths: readonly RewindPath[],
  now: string,
): Promise<RewindComparison> {
  const nowEntries = await repo.entries(
    now,
    paths.map((item) => item.path),
  );
  const at = await entriesByCommit(repo, paths);
  const pending = paths.filter((item) => !same(nowEntries.get(item.path), at.get(item.before)?.get(item.path)));
  const conflicts = pending.filter((item) => !same(nowEntries.get(item.path), at.get(item.after)?.get(item.path)));
  const actions = new Map(
    pending.map((item) => [item.path, rewindAction(nowEntries.get(item.path), at.get(item.before)?.get(item.path))]),
  );
  return { conflicts, pending, actions };
}

/** The paths grouped by the checkpoint they go back to. */
export function byBefore(paths: readonly RewindPath[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const item of paths) groups.set(item.before, [...(groups.get(item.before) ?? []), item.path]);
  return groups;
}

async function entriesByCommit(
  repo: ShadowRepo,
  paths: readonly RewindPath[],
): Promise<Map<string, Map<string, TreeEntry>>> {
  const wanted = new Map<string, string[]>();
  for (const item of paths)
    for (const commit of [item.before, item.after]) wanted.set(commit, [...(wanted.get(commit) ?? []), item.path]);
  const found = new Map<string, Map<string, TreeEntry>>();
  for (const [commit, files] of wanted) found.set(commit, await repo.entries(commit, files));
  return found;
}
