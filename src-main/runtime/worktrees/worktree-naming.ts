import { createHash } from 'node:crypto';
import path from 'node:path';

/** Where worktrees live: under the data directory, never inside the person's repository. */
export function worktreesDir(dataDir: string): string {
  return path.join(dataDir, 'worktrees');
}

/** `fix the login page!` → `fix-the-login-page`: lowercase letters, digits and single dashes, at most 40 characters. */
export function slugOf(title: string): string {
  const slug = title
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return slug === '' ? 'session' : slug;
}

/** A short id for a worktree: 4 hex digits of its id's hash, or `length` when those are taken. */
export function shortIdOf(worktreeId: string, length = 4): string {
  return createHash('sha256').update(worktreeId).digest('hex').slice(0, length);
}

/** The branch and folder of a new worktree: `cairn/<slug-of-title>-<short id>` and `<dataDir>/worktrees/<repo-name>-<short id>`. */
export function worktreeNames(
  dataDir: string,
  repoRoot: string,
  title: string,
  shortId: string,
): { branch: string; folder: string } {
  return {
    branch: `cairn/${slugOf(title)}-${shortId}`,
    folder: path.join(worktreesDir(dataDir), `${path.basename(repoRoot)}-${shortId}`),
  };
}

/**
 * The name a worktree's branch gets once its session has a title, or null to keep the one it has: only
 * a branch named before the title existed (`cairn/new-session-<id>`) is renamed, keeping its short id.
 */
export function branchForTitle(branch: string, title: string, untitledSlug: string): string | null {
  const match = /^cairn\/(.+)-([0-9a-f]{4,10})$/.exec(branch);
  if (match === null || match[1] !== untitledSlug) return null;
  const slug = slugOf(title);
  return slug === untitledSlug ? null : `cairn/${slug}-${match[2] ?? ''}`;
}

/** Whether `inner` is `outer` or inside it. */
export function isInside(inner: string, outer: string): boolean {
  const relative = path.relative(outer, inner);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}
