import { lstatSync, readdir, readFileSync, realpath, type Dirent } from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { glob, type FileSystemAdapter } from 'tinyglobby';

/**
 * Which workspace entries the listing and search tools skip: `.git` always, and whatever the
 * workspace's `.gitignore` files (at every level) and `.git/info/exclude` ignore, with git's
 * precedence (a deeper file overrides a shallower one; a later rule overrides an earlier one).
 * Rules above the workspace root (when it sits inside a larger repository) and the global excludes
 * file are not read.
 */
export interface IgnoreRules {
  /** `relative`: workspace-relative with `/` separators. */
  ignores(relative: string, isDirectory: boolean): boolean;
}

/** Only `.git` is skipped: for a folder the person asked for by name although it is ignored. */
export const ONLY_GIT: IgnoreRules = { ignores: (relative) => relative.split('/').includes('.git') };

function readRulesFile(file: string): string | null {
  try {
    // Only a regular file: a `.gitignore` that is a link (perhaps out of the workspace) is not read.
    return lstatSync(file).isFile() ? readFileSync(file, 'utf8') : null;
  } catch {
    return null;
  }
}

/** The ignore rules of a workspace (real root), read lazily per folder and cached for one call. */
export function loadIgnoreRules(root: string): IgnoreRules {
  const byFolder = new Map<string, Ignore | null>();
  const ignorecase = process.platform === 'darwin' || process.platform === 'win32';
  const rulesOf = (folder: string): Ignore | null => {
    const cached = byFolder.get(folder);
    if (cached !== undefined) return cached;
    const texts = [
      folder === '' ? readRulesFile(path.join(root, '.git', 'info', 'exclude')) : null,
      readRulesFile(path.join(root, folder, '.gitignore')),
    ];
    const present = texts.filter((text): text is string => text !== null);
    // One string per file: `add` splits a string into lines, but takes each array element as one rule.
    const rules = present.length === 0 ? null : present.reduce((all, text) => all.add(text), ignore({ ignorecase }));
    byFolder.set(folder, rules);
    return rules;
  };
  return {
    ignores(relative, isDirectory) {
      const parts = relative.split('/').filter((part) => part !== '' && part !== '.');
      if (parts.length === 0) return false;
      if (parts.includes('.git')) return true;
      let ignored = false;
      for (let depth = 0; depth < parts.length; depth += 1) {
        const rules = rulesOf(parts.slice(0, depth).join('/'));
        if (rules === null) continue;
        const verdict = rules.test(`${parts.slice(depth).join('/')}${isDirectory ? '/' : ''}`);
        if (verdict.ignored) ignored = true;
        else if (verdict.unignored) ignored = false;
      }
      return ignored;
    },
  };
}

export interface FindFilesOptions {
  /** Real workspace root. */
  readonly root: string;
  /** The folder to search, workspace-relative (`.` for the root). */
  readonly folder: string;
  /** Glob patterns relative to `folder` (tinyglobby syntax: `**`, `{a,b}`, `!(x)`). */
  readonly patterns: readonly string[];
  readonly rules: IgnoreRules;
  /** Stop reading folders after this many entries (bounds the work on huge trees). */
  readonly maxEntriesScanned: number;
  readonly signal?: AbortSignal;
}

export interface FoundFiles {
  /** Workspace-relative file paths, `/` separators, sorted. Symbolic links are not followed or listed. */
  readonly files: string[];
  /** True when the scan stopped at `maxEntriesScanned`. */
  readonly scanCapped: boolean;
}

type ReaddirCallback = (error: NodeJS.ErrnoException | null, entries: Dirent[]) => void;

/**
 * Files under `folder` matching `patterns`, skipping what `rules` ignore. The rules prune the walk
 * itself (through tinyglobby's file-system adapter), so an ignored `node_modules` is never read.
 */
export async function findFiles(options: FindFilesOptions): Promise<FoundFiles> {
  const cwd = options.folder === '.' ? options.root : path.join(options.root, options.folder);
  let scanned = 0;
  let scanCapped = false;
  const filteringReaddir = (folder: string, _options: unknown, callback: ReaddirCallback): void => {
    const keep = (entries: Dirent[]) => {
      const base = path.relative(options.root, folder).split(path.sep).join('/');
      const kept = entries.filter(
        (entry) => !options.rules.ignores(base === '' ? entry.name : `${base}/${entry.name}`, entry.isDirectory()),
      );
      scanned += kept.length;
      if (scanned > options.maxEntriesScanned) scanCapped = true;
      callback(null, kept);
    };
    readdir(folder, { withFileTypes: true }, (error, entries) => {
      if (error !== null) return callback(error, []);
      if (scanCapped) return callback(null, []);
      // Read by its path: if the folder is no longer where the walk found it (swapped for a link
      // to somewhere else while being read), what was read is not the workspace's; drop it.
      realpath(folder, (realError, real) => {
        if (realError !== null || real !== path.resolve(folder)) return callback(null, []);
        keep(entries);
      });
    });
  };
  // tinyglobby's adapter takes node's overloaded `readdir`; it only ever calls it with { withFileTypes: true }.
  const fs: FileSystemAdapter = { readdir: filteringReaddir as unknown as FileSystemAdapter['readdir'] };
  const found = await glob([...options.patterns], {
    cwd,
    fs,
    dot: true,
    onlyFiles: true,
    followSymbolicLinks: false,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  const prefix = options.folder === '.' ? '' : `${options.folder}/`;
  return { files: found.map((file) => `${prefix}${file}`).sort(), scanCapped };
}

/** A glob pattern must stay under the folder it is applied to. */
export function unsafePatternReason(pattern: string): string | null {
  if (pattern.includes('\0')) return 'it contains a NUL byte';
  if (pattern.startsWith('/') || /^[A-Za-z]:[\\/]/.test(pattern))
    return 'it is absolute; patterns are relative to `path` (or the workspace)';
  if (pattern.split(/[\\/]/).includes('..')) return 'it climbs out with ".."; use `path` to choose the folder instead';
  return null;
}
