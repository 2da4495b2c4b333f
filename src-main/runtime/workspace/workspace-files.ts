import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { lstat, mkdir, open, readlink, realpath, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { isInside, type ResolvedWorkspacePath } from './workspace-paths';

/**
 * Opening and writing files confined to the workspace, closing the gap between "the path was checked"
 * and "the path was used" (a rename race: a folder or file swapped for a symbolic link in between).
 *
 * Reads: the file is opened with O_NOFOLLOW (a link swapped in as the last component fails to open),
 * then the opened descriptor itself is located (`/proc/self/fd/N` on Linux) and must lie inside the
 * workspace, and its device + inode must equal those of a fresh resolution of the path. Nothing is
 * read from a descriptor that fails either check.
 *
 * Writes: the target's folder is opened (O_DIRECTORY | O_NOFOLLOW) and verified the same way; on Linux
 * the temp file is then created and renamed through `/proc/self/fd/<folder>/…`, which names that very
 * folder (like openat/renameat), so no path is re-resolved between the check and the rename. The
 * temp file is created with O_EXCL | O_NOFOLLOW, written, synced, and renamed over the target, so a
 * reader never sees half a file and a link at the target is replaced, never followed. Without
 * `/proc` (macOS) the same steps run on paths, with the same checks before and after: a race in the
 * last microseconds before the rename is then detected afterwards rather than prevented.
 */

const PROC_FD = '/proc/self/fd';

export type Opened =
  | { readonly ok: true; readonly handle: FileHandle; readonly stats: Stats }
  | { readonly ok: false; readonly message: string };

export type WriteResult =
  | { readonly ok: true; readonly created: boolean; readonly bytes: number }
  | { readonly ok: false; readonly message: string };

function errorCode(error: unknown): string {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'unknown error';
}

function changedMessage(relative: string, action: string): string {
  return `"${relative}" changed while it was being ${action} (it was moved or replaced, perhaps by a symbolic link leading out of the workspace). Nothing was done; try again.`;
}

/** Where the open descriptor really is, or null where the system cannot say (no /proc). */
async function locate(handle: FileHandle): Promise<string | null> {
  try {
    return await readlink(`${PROC_FD}/${handle.fd}`);
  } catch {
    return null;
  }
}

/** The descriptor is inside `root` and is the same file a fresh resolution of `onDisk` finds. */
async function verifyHandle(root: string, handle: FileHandle, onDisk: string): Promise<boolean> {
  const opened = await handle.stat();
  const located = await locate(handle);
  if (located !== null && (located.endsWith(' (deleted)') || !isInside(root, located))) return false;
  try {
    const fresh = await realpath(onDisk);
    if (!isInside(root, fresh)) return false;
    const now = await stat(fresh);
    return now.dev === opened.dev && now.ino === opened.ino;
  } catch {
    return false;
  }
}

/**
 * Opens a resolved path for reading (a file or a folder), verified to be inside the workspace.
 * The caller closes the handle.
 */
export async function openConfined(target: ResolvedWorkspacePath): Promise<Opened> {
  let handle: FileHandle;
  try {
    // O_NONBLOCK: opening a FIFO must not hang the host; reads of regular files ignore it.
    handle = await open(target.absolute, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ELOOP') return { ok: false, message: changedMessage(target.relative, 'opened') };
    if (code === 'ENOENT') return { ok: false, message: `"${target.relative}" does not exist (any more).` };
    return { ok: false, message: `"${target.relative}" cannot be opened (${code}).` };
  }
  try {
    if (!(await verifyHandle(target.root, handle, target.absolute))) {
      await handle.close();
      return { ok: false, message: changedMessage(target.relative, 'opened') };
    }
    const stats = await handle.stat();
    if (!stats.isFile() && !stats.isDirectory()) {
      await handle.close();
      return { ok: false, message: `"${target.relative}" is not a regular file (it is a device, socket or pipe).` };
    }
    return { ok: true, handle, stats };
  } catch (error) {
    await handle.close().catch(() => undefined);
    return { ok: false, message: `"${target.relative}" cannot be opened (${errorCode(error)}).` };
  }
}

/** Reads a whole file (at most `maxBytes`), verified to be inside the workspace. */
export async function readConfined(
  target: ResolvedWorkspacePath,
  maxBytes: number,
): Promise<{ ok: true; bytes: Buffer } | { ok: false; message: string }> {
  const opened = await openConfined(target);
  if (!opened.ok) return opened;
  try {
    if (opened.stats.isDirectory()) return { ok: false, message: `"${target.relative}" is a folder, not a file.` };
    if (opened.stats.size > maxBytes) {
      return {
        ok: false,
        message: `"${target.relative}" is ${opened.stats.size} bytes, over the ${maxBytes}-byte limit for this tool.`,
      };
    }
    return { ok: true, bytes: await opened.handle.readFile() };
  } finally {
    await opened.handle.close();
  }
}

/** Creates the missing folders of `folder` one by one, refusing any link or file met on the way. */
async function ensureFolder(root: string, folder: string): Promise<string | null> {
  const relative = path.relative(root, folder);
  let current = root;
  for (const part of relative === '' ? [] : relative.split(path.sep)) {
    current = path.join(current, part);
    let entry: Stats | null = null;
    try {
      entry = await lstat(current);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') return `cannot examine ${part} (${errorCode(error)})`;
    }
    if (entry === null) {
      try {
        await mkdir(current);
        entry = await lstat(current);
      } catch (error) {
        return `cannot create the folder ${part} (${errorCode(error)})`;
      }
    }
    if (entry.isSymbolicLink()) return 'changed';
    if (!entry.isDirectory()) return `${part} is not a folder`;
  }
  return null;
}

/**
 * Writes `content` to a resolved path (resolved with `forWrite`) through a temp file in the same,
 * verified folder and a rename. Missing parent folders are created. An existing file keeps its mode.
 */
export async function writeConfined(target: ResolvedWorkspacePath, content: string | Uint8Array): Promise<WriteResult> {
  const folder = path.dirname(target.absolute);
  const name = path.basename(target.absolute);
  const folderProblem = await ensureFolder(target.root, folder);
  if (folderProblem === 'changed') return { ok: false, message: changedMessage(target.relative, 'written') };
  if (folderProblem !== null)
    return { ok: false, message: `"${target.relative}" cannot be written: ${folderProblem}.` };

  let folderHandle: FileHandle;
  try {
    folderHandle = await open(folder, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch (error) {
    const code = errorCode(error);
    return {
      ok: false,
      message:
        code === 'ELOOP' || code === 'ENOENT'
          ? changedMessage(target.relative, 'written')
          : `"${target.relative}" cannot be written (${code}).`,
    };
  }
  try {
    if (!(await verifyHandle(target.root, folderHandle, folder)))
      return { ok: false, message: changedMessage(target.relative, 'written') };
    // On Linux this names the verified folder itself, not a path that could be swapped.
    const base = (await locate(folderHandle)) === null ? folder : `${PROC_FD}/${folderHandle.fd}`;
    const destination = path.join(base, name);

    let mode: number | undefined;
    let created = true;
    try {
      const existing = await lstat(destination);
      if (existing.isSymbolicLink()) return { ok: false, message: changedMessage(target.relative, 'written') };
      if (!existing.isFile()) return { ok: false, message: `"${target.relative}" exists and is not a regular file.` };
      mode = existing.mode & 0o7777;
      created = false;
    } catch (error) {
      if (errorCode(error) !== 'ENOENT')
        return { ok: false, message: `"${target.relative}" cannot be written (${errorCode(error)}).` };
    }

    const temp = path.join(base, `.cairn-${randomBytes(8).toString('hex')}.tmp`);
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    try {
      const file = await open(
        temp,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
        mode ?? 0o666,
      );
      try {
        await file.writeFile(bytes);
        if (mode !== undefined) await file.chmod(mode);
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(temp, destination);
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      return { ok: false, message: `"${target.relative}" could not be written (${errorCode(error)}).` };
    }
    await folderHandle.sync().catch(() => undefined);

    const located = await locate(folderHandle);
    if (located !== null && (located.endsWith(' (deleted)') || !isInside(target.root, located))) {
      return {
        ok: false,
        message: `The folder of "${target.relative}" was moved out of the workspace (to ${located}) while it was being written; the file went with it.`,
      };
    }
    if (located === null && !(await verifyHandle(target.root, folderHandle, folder))) {
      return { ok: false, message: changedMessage(target.relative, 'written') };
    }
    return { ok: true, created, bytes: bytes.byteLength };
  } finally {
    await folderHandle.close();
  }
}
