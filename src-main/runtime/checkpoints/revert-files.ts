import { lstat, mkdir, readdir, realpath, rename, rm, rmdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ShadowRepo, TreeEntry } from './shadow-git';

const same = (a: TreeEntry | undefined, b: TreeEntry | undefined) =>
  a === undefined ? b === undefined : b !== undefined && a.mode === b.mode && a.oid === b.oid;

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
  const [nowEntries, beforeEntries, afterEntries] = await Promise.all([
    repo.entries(now, paths),
    repo.entries(before, paths),
    repo.entries(after, paths),
  ]);
  const pending = paths.filter((file) => !same(nowEntries.get(file), beforeEntries.get(file)));
  return { conflicts: pending.filter((file) => !same(nowEntries.get(file), afterEntries.get(file))), pending };
}

/**
 * Puts `paths` back as they are in `before`: removes what was not there first, then rewrites the
 * rest (through a temp file), so a folder that became a file, or a link, and back is put back
 * whichever way it went. Nothing is removed or written through a link out of the workspace.
 */
export async function restoreFiles(repo: ShadowRepo, paths: readonly string[], before: string): Promise<void> {
  const root = await realpath(repo.workTree);
  const entries = await repo.entries(before, paths);
  for (const file of paths) {
    if (entries.has(file)) continue;
    const target = inside(root, file);
    const parent = await realpath(path.dirname(target)).catch(() => null);
    if (parent === null || (parent !== root && !parent.startsWith(root + path.sep))) continue; // not in the workspace: nothing of it to remove
    await rm(path.join(parent, path.basename(target)), { force: true });
    await removeEmptyParents(root, parent);
  }
  for (const file of paths) {
    const entry = entries.get(file);
    if (entry !== undefined) await writeEntry(repo, root, inside(root, file), entry);
  }
}

/**
 * Open both: writes `before`'s version of each of `paths` beside the person's own
 * (`notes.md` → `notes.cairn-checkpoint.md`, numbered when that name is taken), leaving theirs as it
 * is. A path that did not exist in `before` has no version to write. Returns the files written.
 */
export async function writeBeside(repo: ShadowRepo, paths: readonly string[], before: string): Promise<string[]> {
  const root = await realpath(repo.workTree);
  const entries = await repo.entries(before, paths);
  const written: string[] = [];
  for (const file of paths) {
    const entry = entries.get(file);
    if (entry === undefined) continue;
    let beside = besideName(file, 1);
    for (let number = 2; await exists(inside(root, beside)); number += 1) beside = besideName(file, number);
    await writeEntry(repo, root, inside(root, beside), entry);
    written.push(beside);
  }
  return written;
}

/** `dir/notes.md` → `dir/notes.cairn-checkpoint.md` (the second: `notes.cairn-checkpoint-2.md`); a name without an extension gets the suffix at its end. */
export function besideName(file: string, number: number): string {
  const parsed = path.posix.parse(file);
  const tag = number === 1 ? '.cairn-checkpoint' : `.cairn-checkpoint-${number}`;
  const name = parsed.ext === '' || parsed.name === '' ? `${parsed.base}${tag}` : `${parsed.name}${tag}${parsed.ext}`;
  return parsed.dir === '' ? name : `${parsed.dir}/${name}`;
}

function inside(root: string, file: string): string {
  const target = path.resolve(root, file);
  if (!target.startsWith(root + path.sep)) throw new Error(`Refusing to write outside the workspace: ${file}`);
  return target;
}

async function exists(file: string): Promise<boolean> {
  return lstat(file).then(
    () => true,
    () => false,
  );
}

/** Writes one tree entry's content at `target` through a temp file and a rename, never through a link out of the workspace. */
async function writeEntry(repo: ShadowRepo, root: string, target: string, entry: TreeEntry): Promise<void> {
  const parent = path.dirname(target);
  await mkdir(parent, { recursive: true });
  const realParent = await realpath(parent);
  if (realParent !== root && !realParent.startsWith(root + path.sep))
    throw new Error(`Refusing to write through a link out of the workspace: ${path.relative(root, target)}`);
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

async function removeEmptyParents(root: string, folder: string): Promise<void> {
  for (let current = folder; current !== root && current.startsWith(root + path.sep); current = path.dirname(current)) {
    const left = await readdir(current).catch(() => null);
    if (left === null || left.length > 0) return;
    await rmdir(current).catch(() => undefined);
  }
}
