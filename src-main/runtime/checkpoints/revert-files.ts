import { mkdir, readdir, realpath, rename, rm, rmdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ShadowRepo, TreeEntry } from './shadow-git';

const same = (a: TreeEntry | undefined, b: TreeEntry | undefined) => (a === undefined ? b === undefined : b !== undefined && a.mode === b.mode && a.oid === b.oid);

/**
 * Which of `paths` are not yet as in `before` (pending), and which of those someone changed since
 * `after` (conflicts), judged against a fresh snapshot of the workspace (`now`).
 */
export async function compareWithCheckpoint(
  repo: ShadowRepo,
  paths: readonly string[],
  now: string,
  before: string,
  after: string,
): Promise<{ conflicts: string[]; pending: string[] }> {
  const [nowEntries, beforeEntries, afterEntries] = await Promise.all([repo.entries(now, paths), repo.entries(before, paths), repo.entries(after, paths)]);
  const pending = paths.filter((file) => !same(nowEntries.get(file), beforeEntries.get(file)));
  return { conflicts: pending.filter((file) => !same(nowEntries.get(file), afterEntries.get(file))), pending };
}

/** Puts `paths` back as they are in `before`: rewrites their content (through a temp file) or removes them. */
export async function restoreFiles(repo: ShadowRepo, paths: readonly string[], before: string): Promise<void> {
  const root = await realpath(repo.workTree);
  const entries = await repo.entries(before, paths);
  for (const file of paths) {
    const target = path.resolve(root, file);
    if (!target.startsWith(root + path.sep)) throw new Error(`Refusing to write outside the workspace: ${file}`);
    const entry = entries.get(file);
    if (entry === undefined) {
      await rm(target, { force: true });
      await removeEmptyParents(root, path.dirname(target));
      continue;
    }
    const parent = path.dirname(target);
    await mkdir(parent, { recursive: true });
    const realParent = await realpath(parent);
    if (realParent !== root && !realParent.startsWith(root + path.sep)) throw new Error(`Refusing to write through a link out of the workspace: ${file}`);
    const content = await repo.blob(entry.oid);
    const temp = path.join(realParent, `.${path.basename(target)}.cairn-revert-${process.pid}`);
    if (entry.mode === '120000') {
      await rm(temp, { force: true });
      await symlink(content.toString('utf8'), temp);
    } else {
      await writeFile(temp, content, { mode: entry.mode === '100755' ? 0o755 : 0o644 });
    }
    await rename(temp, path.join(realParent, path.basename(target)));
  }
}

async function removeEmptyParents(root: string, folder: string): Promise<void> {
  for (let current = folder; current !== root && current.startsWith(root + path.sep); current = path.dirname(current)) {
    const left = await readdir(current).catch(() => null);
    if (left === null || left.length > 0) return;
    await rmdir(current).catch(() => undefined);
  }
}
