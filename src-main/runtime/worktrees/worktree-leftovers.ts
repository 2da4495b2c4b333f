import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { WorktreeLeftover } from '../../../src-shared/worktree-model';
import type { WorktreeStore } from '../../storage/worktree-store';
import type { Git } from './git-command';
import { currentBranch, worktreeFolders } from './worktree-git';
import { isInside, worktreesDir } from './worktree-naming';

/**
 * Worktrees no session works in: a record whose session is gone or whose folder vanished, a folder
 * under `<dataDir>/worktrees` no record names (a crash between `git worktree add` and the record),
 * and a `git worktree list` entry of a known repository pointing there.
 */
export async function findLeftovers(
  git: Git,
  worktrees: WorktreeStore,
  sessionExists: (sessionId: string) => boolean,
  dataDir: string,
): Promise<WorktreeLeftover[]> {
  const leftovers: WorktreeLeftover[] = [];
  const known = new Set<string>();
  for (const worktree of worktrees.active()) {
    known.add(path.resolve(worktree.path));
    if (!existsSync(worktree.path)) leftovers.push({ path: worktree.path, reason: 'folder_missing', worktree });
    else if (!sessionExists(worktree.sessionId))
      leftovers.push({ path: worktree.path, reason: 'no_session', worktree });
  }
  const root = worktreesDir(dataDir);
  const unknown = new Set<string>();
  if (existsSync(root)) for (const name of readdirSync(root)) unknown.add(path.join(root, name));
  for (const repo of worktrees.repoRoots()) {
    if (!existsSync(repo)) continue;
    for (const folder of await worktreeFolders(git, repo))
      if (isInside(folder, root) && folder !== root) unknown.add(folder);
  }
  for (const folder of [...unknown].sort())
    if (!known.has(path.resolve(folder))) leftovers.push({ path: folder, reason: 'unknown_folder', worktree: null });
  return leftovers;
}

/**
 * Removes a worktree folder no record names: through its repository when it still is a worktree
 * (its `cairn/` branch too), then the folder itself. Only ever a folder directly under `<dataDir>/worktrees`.
 */
export async function removeUnknownFolder(
  git: Git,
  worktrees: WorktreeStore,
  dataDir: string,
  folder: string,
): Promise<void> {
  if (path.dirname(path.resolve(folder)) !== worktreesDir(dataDir))
    throw new Error(`Refusing to remove ${folder}: not a worktree folder of this data directory`);
  if (existsSync(folder)) {
    const top = await git(folder, ['rev-parse', '--show-toplevel'], { okCodes: [128] });
    if (top.code === 0 && path.resolve(top.stdout.trim()) === path.resolve(folder)) {
      const common = (await git(folder, ['rev-parse', '--path-format=absolute', '--git-common-dir'])).stdout.trim();
      const branch = await currentBranch(git, folder);
      await git(common, ['worktree', 'remove', '--force', '--force', folder]);
      if (branch?.startsWith('cairn/') === true) await git(common, ['branch', '-D', branch], { okCodes: [1] });
    }
  }
  rmSync(folder, { recursive: true, force: true });
  for (const repo of worktrees.repoRoots()) if (existsSync(repo)) await git(repo, ['worktree', 'prune']);
}
