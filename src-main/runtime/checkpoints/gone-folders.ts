import { existsSync } from 'node:fs';
import type { Stores } from '../../storage/stores';

/**
 * Why a change set's files cannot be put back because the folder they were changed in is gone (a
 * worktree discarded or merged back removes its folder), or null while it exists.
 */
export function whyFolderGone(workspacePath: string, worktrees: Stores['worktrees']): string | null {
  if (existsSync(workspacePath)) return null;
  const worktree = worktrees.containing(workspacePath);
  if (worktree?.state === 'discarded')
    return `The worktree these changes were made in (${worktree.branch}) was discarded with its folder, so they can no longer be reverted.`;
  if (worktree?.state === 'merged')
    return `The worktree these changes were made in (${worktree.branch}) was merged back into ${worktree.baseBranch} and removed, so they can no longer be reverted here.`;
  return `The folder these changes were made in (${workspacePath}) no longer exists, so they cannot be reverted.`;
}
