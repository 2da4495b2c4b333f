import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { WorktreeFile } from '../../../src-shared/worktree-model';
import type { Git } from './git-command';

/** The git steps of a session worktree, each on the person's repository through `Git`. */

export interface RepoHead {
  /** The repository's top folder (a workspace may be a folder inside it). */
  readonly root: string;
  readonly branch: string;
  readonly commit: string;
}

/** The checkout's top folder, branch and commit; a reason when the folder is no git checkout on a branch with a commit. */
export async function repoHead(git: Git, folder: string): Promise<RepoHead | { readonly reason: string }> {
  const top = await git(folder, ['rev-parse', '--show-toplevel'], { okCodes: [128] });
  if (top.code !== 0) return { reason: 'This folder is not inside a git repository, so it cannot have a worktree.' };
  const root = top.stdout.trim();
  const branch = await git(root, ['symbolic-ref', '--quiet', '--short', 'HEAD'], { okCodes: [1] });
  if (branch.code !== 0)
    return {
      reason: 'The repository is not on a branch (detached HEAD); check out the branch the worktree should start from.',
    };
  const commit = await git(root, ['rev-parse', '--verify', '--quiet', 'HEAD'], { okCodes: [1] });
  if (commit.code !== 0) return { reason: 'The repository has no commit yet; a worktree starts from a commit.' };
  return { root, branch: branch.stdout.trim(), commit: commit.stdout.trim() };
}

export async function branchExists(git: Git, repo: string, branch: string): Promise<boolean> {
  return (await git(repo, ['show-ref', '--verify', '--quiet', `refs/heads/${branch}`], { okCodes: [1] })).code === 0;
}

/** Renames the branch checked out in the worktree `folder` (its own checkout, so no other is touched). */
export async function renameCurrentBranch(git: Git, folder: string, branch: string): Promise<void> {
  await git(folder, ['branch', '-m', branch]);
}

/** Adds the worktree on a new branch from `commit`; a retry that finds both already made is done. */
export async function addWorktree(
  git: Git,
  repo: string,
  folder: string,
  branch: string,
  commit: string,
): Promise<void> {
  const listed = await worktreeFolders(git, repo);
  if (listed.includes(path.resolve(folder)) && (await branchExists(git, repo, branch))) return;
  await git(repo, ['worktree', 'add', '--quiet', '-b', branch, folder, commit]);
}

/** The folders of every worktree of the repository `repo` belongs to (the main checkout first). */
export async function worktreeFolders(git: Git, repo: string): Promise<string[]> {
  const listed = await git(repo, ['worktree', 'list', '--porcelain', '-z']);
  return listed.stdout
    .split('\0')
    .filter((field) => field.startsWith('worktree '))
    .map((field) => path.resolve(field.slice('worktree '.length)));
}

/** Removes the worktree (whatever it holds) and its branch; nothing left to remove is fine. */
export async function removeWorktree(git: Git, repo: string, folder: string, branch: string): Promise<void> {
  if (!existsSync(repo)) {
    rmSync(folder, { recursive: true, force: true });
    return;
  }
  if (existsSync(folder) && (await worktreeFolders(git, repo)).includes(path.resolve(folder)))
    await git(repo, ['worktree', 'remove', '--force', '--force', folder]);
  rmSync(folder, { recursive: true, force: true });
  await git(repo, ['worktree', 'prune']);
  if (await branchExists(git, repo, branch)) await git(repo, ['branch', '-D', branch]);
}

/** The worktree's files as a tree object (tracked and untracked, ignores honoured), written through a temporary index. */
export async function snapshotTree(git: Git, folder: string): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cairn-worktree-index-'));
  const env = { GIT_INDEX_FILE: path.join(dir, 'index') };
  try {
    await git(folder, ['read-tree', 'HEAD'], { env });
    await git(folder, ['add', '--all'], { env });
    return (await git(folder, ['write-tree'], { env })).stdout.trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const CHANGES: Record<string, WorktreeFile['change']> = { A: 'created', M: 'modified', D: 'deleted', T: 'modified' };

/** Files that differ between two commits or trees. */
export async function changedFiles(git: Git, folder: string, from: string, to: string): Promise<WorktreeFile[]> {
  const fields = (await git(folder, ['diff', '--name-status', '--no-renames', '-z', from, to])).stdout.split('\0');
  const files: WorktreeFile[] = [];
  for (let index = 0; index + 1 < fields.length; index += 2) {
    files.push({ path: fields[index + 1] ?? '', change: CHANGES[fields[index] ?? ''] ?? 'modified' });
  }
  return files;
}

export async function fileDiff(git: Git, folder: string, from: string, to: string, file: string): Promise<string> {
  return (await git(folder, ['diff', '--no-renames', '--no-color', from, to, '--', file])).stdout;
}

export async function mergeBase(git: Git, folder: string, a: string, b: string): Promise<string> {
  return (await git(folder, ['merge-base', a, b])).stdout.trim();
}

export async function isAncestor(git: Git, folder: string, ancestor: string, of: string): Promise<boolean> {
  return (await git(folder, ['merge-base', '--is-ancestor', ancestor, of], { okCodes: [1] })).code === 0;
}

/** Commits on `branch` not on `base`, and on `base` not on `branch`. */
export async function aheadBehind(
  git: Git,
  folder: string,
  base: string,
  branch: string,
): Promise<{ ahead: number; behind: number }> {
  const [behind, ahead] = (await git(folder, ['rev-list', '--left-right', '--count', `${base}...${branch}`])).stdout
    .trim()
    .split(/\s+/)
    .map(Number);
  return { ahead: ahead ?? 0, behind: behind ?? 0 };
}

export async function revParse(git: Git, folder: string, rev: string): Promise<string> {
  return (await git(folder, ['rev-parse', '--verify', `${rev}^{commit}`])).stdout.trim();
}

/** The person's identity when git has one; Cairn's otherwise, so a commit never stops on "tell me who you are". */
async function identity(git: Git, folder: string): Promise<Record<string, string>> {
  const email = await git(folder, ['config', '--get', 'user.email'], { okCodes: [1] });
  const name = await git(folder, ['config', '--get', 'user.name'], { okCodes: [1] });
  if (email.code === 0 && name.code === 0) return {};
  return {
    GIT_AUTHOR_NAME: 'Cairn',
    GIT_AUTHOR_EMAIL: 'worktrees@cairn.invalid',
    GIT_COMMITTER_NAME: 'Cairn',
    GIT_COMMITTER_EMAIL: 'worktrees@cairn.invalid',
  };
}

/** Commits everything uncommitted in the worktree (hooks skipped); false when there was nothing. */
export async function commitPending(git: Git, folder: string, message: string): Promise<boolean> {
  await git(folder, ['add', '--all']);
  if ((await git(folder, ['diff', '--cached', '--quiet'], { okCodes: [1] })).code === 0) return false;
  await git(folder, ['commit', '--quiet', '--no-verify', '-m', message], { env: await identity(git, folder) });
  return true;
}

/** What merging `branch` into `base` would give, computed without touching any checkout. */
export type MergePlan =
  | { readonly kind: 'up_to_date'; readonly commit: string }
  | { readonly kind: 'fast_forward'; readonly commit: string }
  | { readonly kind: 'merge_commit'; readonly commit: string }
  | { readonly kind: 'conflict'; readonly files: readonly string[] };

export async function planMerge(
  git: Git,
  folder: string,
  baseTip: string,
  branchTip: string,
  message: string,
): Promise<MergePlan> {
  if (await isAncestor(git, folder, branchTip, baseTip)) return { kind: 'up_to_date', commit: baseTip };
  if (await isAncestor(git, folder, baseTip, branchTip)) return { kind: 'fast_forward', commit: branchTip };
  const merged = await git(folder, ['merge-tree', '--write-tree', '--name-only', '--no-messages', baseTip, branchTip], {
    okCodes: [1],
  });
  const [tree = '', ...conflicted] = merged.stdout.split('\n').filter((line) => line !== '');
  if (merged.code === 1) return { kind: 'conflict', files: [...new Set(conflicted)].sort() };
  const commit = await git(folder, ['commit-tree', tree, '-p', baseTip, '-p', branchTip, '-m', message], {
    env: await identity(git, folder),
  });
  return { kind: 'merge_commit', commit: commit.stdout.trim() };
}

/** Paths with uncommitted changes (staged, unstaged or untracked) in a checkout. */
export async function uncommittedPaths(git: Git, folder: string): Promise<Set<string>> {
  const fields = (
    await git(folder, ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames'])
  ).stdout.split('\0');
  return new Set(fields.filter((field) => field.length > 3).map((field) => field.slice(3)));
}

/** The branch a checkout is on, or null when detached. */
export async function currentBranch(git: Git, folder: string): Promise<string | null> {
  const branch = await git(folder, ['symbolic-ref', '--quiet', '--short', 'HEAD'], { okCodes: [1] });
  return branch.code === 0 ? branch.stdout.trim() : null;
}

/**
 * Moves `base` from `from` to its descendant `to`. Where the base checkout is on that branch, a
 * fast-forward there updates its files too, and git refuses (writing nothing) rather than overwrite
 * a local change; elsewhere only the ref moves, and only if it still points at `from`.
 */
export async function advanceBase(git: Git, checkout: string, base: string, from: string, to: string): Promise<void> {
  if ((await currentBranch(git, checkout)) === base) await git(checkout, ['merge', '--ff-only', '--quiet', to]);
  else await git(checkout, ['update-ref', `refs/heads/${base}`, to, from]);
}

/** Merges `base` into the worktree's branch, leaving conflicts there to resolve; the conflicted files, or none. */
export async function mergeBaseIntoWorktree(git: Git, folder: string, base: string): Promise<string[]> {
  const merged = await git(folder, ['merge', '--no-edit', '--no-verify', base], {
    okCodes: [1],
    env: await identity(git, folder),
  });
  if (merged.code === 0) return [];
  return (await git(folder, ['diff', '--name-only', '--diff-filter=U', '-z'])).stdout
    .split('\0')
    .filter((file) => file !== '');
}
