import { lstatSync } from 'node:fs';
import path from 'node:path';

/**
 * Whether a path's folders are all real folders, looked up once per folder: a path beyond a symlink
 * (`sub/x.txt` once `sub` is a link) or under a file is not in the work tree, whatever lstat says.
 */
export class FolderCheck {
  private readonly known = new Map<string, boolean>();

  constructor(private readonly root: string) {}

  under(relative: string): boolean {
    const parent = path.posix.dirname(relative);
    return parent === '.' || this.isFolder(parent);
  }

  private isFolder(relative: string): boolean {
    const known = this.known.get(relative);
    if (known !== undefined) return known;
    const parent = path.posix.dirname(relative);
    const result =
      (parent === '.' || this.isFolder(parent)) && lstatOrNull(path.join(this.root, relative))?.isDirectory() === true;
    this.known.set(relative, result);
    return result;
  }
}

/** A path's lstat, or null when it is not there. */
export function lstatOrNull(file: string) {
  try {
    return lstatSync(file);
  } catch {
    return null;
  }
}

/** A NUL-separated list from git (`-z`) as paths. */
export function splitZ(buffer: Buffer): string[] {
  const text = buffer.toString('utf8');
  if (text === '') return [];
  const parts = text.split('\0');
  if (parts.at(-1) === '') parts.pop();
  return parts;
}

/** Paths as git reads them on stdin with `-z`. */
export function joinZ(paths: readonly string[]): string {
  return paths.map((item) => `${item}\0`).join('');
}
