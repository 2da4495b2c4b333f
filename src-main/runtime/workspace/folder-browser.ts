import { readdirSync, statSync, type Dirent } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fail, ok, type Outcome } from '../../../src-shared/errors';
import type { FolderEntry, FolderListing } from '../../../src-shared/operations/folder-operations';

/** At most this many folders in one listing (a folder of thousands is cut, saying so). */
export const FOLDER_LISTING_LIMIT = 1000;

/**
 * The sub-folders of `path` on the host (its home folder when absent), sorted by name; hidden ones
 * (a name starting with ".") only when asked. A link to a folder counts as a folder. Refuses, saying
 * which, a path that is not absolute, is not there, is not a folder, or cannot be read.
 */
export function listFolders(
  request: { readonly path?: string; readonly showHidden?: boolean },
  home: string,
): Outcome<FolderListing, 'invalid_input' | 'not_found'> {
  const asked = request.path ?? home;
  if (!isAbsolute(asked))
    return fail('invalid_input', `"${asked}" is not an absolute path: start it with / (or a drive letter on Windows).`);
  const path = resolve(asked);
  let entries: Dirent[];
  try {
    if (!statSync(path).isDirectory()) return fail('invalid_input', `${path} is a file, not a folder.`);
    entries = readdirSync(path, { withFileTypes: true });
  } catch (error) {
    return unreadable(path, error);
  }
  const folders: FolderEntry[] = [];
  let hiddenCount = 0;
  for (const entry of entries) {
    if (!isFolder(path, entry)) continue;
    if (entry.name.startsWith('.') && request.showHidden !== true) {
      hiddenCount += 1;
      continue;
    }
    folders.push({ name: entry.name, path: join(path, entry.name) });
  }
  folders.sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base', numeric: true }));
  const parent = dirname(path);
  return ok({
    path,
    parent: parent === path ? null : parent,
    home,
    folders: folders.slice(0, FOLDER_LISTING_LIMIT),
    hiddenCount,
    truncated: folders.length > FOLDER_LISTING_LIMIT,
  });
}

function isFolder(parent: string, entry: Dirent): boolean {
  if (entry.isDirectory()) return true;
  if (!entry.isSymbolicLink()) return false;
  try {
    return statSync(join(parent, entry.name)).isDirectory();
  } catch {
    return false; // a dangling link
  }
}

function unreadable(path: string, error: unknown): Outcome<never, 'invalid_input' | 'not_found'> {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return fail('not_found', `There is no folder ${path} on the host.`);
  if (code === 'EACCES' || code === 'EPERM')
    return fail('invalid_input', `Cairn may not open ${path}: permission denied.`);
  if (code === 'ENOTDIR') return fail('invalid_input', `${path} is not a folder.`);
  return fail('invalid_input', `Cairn could not read ${path} (${code ?? String(error)}).`);
}
