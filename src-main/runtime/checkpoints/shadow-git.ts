import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { childEnvironment } from '../shell/child-environment';
import { runGitHere, type GitRunner } from './git-runner';
import { FolderCheck, joinZ, lstatOrNull, splitZ } from './work-tree-paths';

/*
 * Why the system `git` and not isomorphic-git or a store of our own: checkpoints must be cheap on a
 * 10,000-file workspace, and git's index already is the incremental cache we need (it keeps each
 * file's mtime/size/inode and rehashes only what changed), `.gitignore` is honoured exactly as the
 * person's own tools honour it, and objects plus atomic ref updates give crash safety for free.
 * isomorphic-git re-implements all of that in JavaScript and is several times slower on big trees.
 * The shadow repository lives under the data directory and is always addressed with GIT_DIR and
 * GIT_WORK_TREE, so the person's own `.git` is never read or written. Where `git` is absent,
 * checkpoints are unavailable and every place that would show them says why (`gitUnavailable`).
 */

/** The largest file a checkpoint keeps; bigger files are listed as too large and left out. */
export const DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024;

export class GitError extends Error {}

export interface GitOptions {
  readonly input?: string | Buffer;
  readonly okCodes?: readonly number[];
  /** An index file of its own instead of the shared one. */
  readonly index?: string;
  /** At the lowest CPU priority. */
  readonly background?: boolean;
}

/** One entry of a tree: its mode and object id (a missing path is null). */
export interface TreeEntry {
  readonly mode: string;
  readonly oid: string;
}

export interface Snapshot {
  readonly tree: string;
  /** Files left out because they pass the size cap. */
  readonly tooLarge: readonly string[];
  /** Files git could not read: each keeps the state the shadow index had for it. */
  readonly unreadable: readonly UnreadableFile[];
}

export interface UnreadableFile {
  readonly path: string;
  /** git's own words. */
  readonly reason: string;
}

export interface NumstatEntry {
  readonly path: string;
  readonly change: 'created' | 'modified' | 'deleted';
  /** Lines added and removed; null for a binary file. */
  readonly added: number | null;
  readonly removed: number | null;
}

const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/**
 * A shadow git repository whose work tree is the person's workspace. Every call is serialised (one
 * index), and the environment is built from scratch so nothing of the person's git setup (hooks,
 * GIT_INDEX_FILE, fsmonitor) applies; their `.gitignore` files do.
 */
export class ShadowRepo {
  private queue: Promise<unknown> = Promise.resolve();
  private opened: Promise<void> | null = null;
  private scratch = 0;

  constructor(
    readonly gitDir: string,
    readonly workTree: string,
    private readonly maxFileBytes = DEFAULT_MAX_FILE_BYTES,
    /**
     * Folders never copied, wherever they sit in the work tree: Cairn's data directory, when a person's
     * workspace holds it (a home folder). Copied, every checkpoint would hold the live database and
     * this repository's own objects, and a revert would write an old database under the running host.
     */
    private readonly excluded: readonly string[] = [],
    /** Where git runs: from this thread unless given (the host passes its GitHelper's). */
    private readonly runner: GitRunner = runGitHere,
  ) {}

  /** Runs `work` after every earlier call on this repository has finished. */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private env(): NodeJS.ProcessEnv {
    const env = childEnvironment({
      scrubSecrets: false,
      only: ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TMPDIR', 'SystemRoot'],
    });
    return {
      ...env,
      GIT_DIR: this.gitDir,
      GIT_WORK_TREE: this.workTree,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: path.join(this.gitDir, 'no-global-config'),
      GIT_AUTHOR_NAME: 'Cairn',
      GIT_AUTHOR_EMAIL: 'checkpoints@cairn.invalid',
      GIT_COMMITTER_NAME: 'Cairn',
      GIT_COMMITTER_EMAIL: 'checkpoints@cairn.invalid',
      GIT_TERMINAL_PROMPT: '0',
      GIT_LITERAL_PATHSPECS: '1',
      // git deflates each new object with a fresh zlib stream; glibc hands the freed heap straight
      // back and grows it again for the next one, two brk calls per object. On a busy machine brk
      // is slow: hashing a new 10,000-file workspace spent 9 s of system time in 40,000 brk calls
      // (28 s wall) against 0.6 s (2 s) with the heap kept. Ignored by other C libraries.
      GLIBC_TUNABLES: 'glibc.malloc.trim_threshold=67108864:glibc.malloc.top_pad=16777216',
    };
  }

  /**
   * Runs git; resolves with stdout (as a Buffer), rejects with stderr. Exit codes in `okCodes` are
   * success. `index` is an index file of its own (the shared one otherwise); `background` runs git at
   * the lowest CPU priority, so work no one waits for does not slow what someone does.
   */
  async git(args: readonly string[], options: GitOptions = {}): Promise<Buffer> {
    const env = options.index === undefined ? this.env() : { ...this.env(), GIT_INDEX_FILE: options.index };
    // A discarded worktree's folder is gone while its checkpoints (and their diffs) are still read.
    const cwd = existsSync(this.workTree) ? this.workTree : this.gitDir;
    const outcome = await this.runner({
      args,
      cwd,
      env,
      ...(options.input === undefined ? {} : { input: options.input }),
      background: options.background === true,
    });
    if (outcome.kind === 'not-run') throw new GitError(`git could not be run: ${outcome.message}`);
    if (outcome.kind === 'unanswered') throw new GitError(`git ${args[0] ?? ''} was not answered: ${outcome.message}`);
    const { code } = outcome;
    if (code !== null && (code === 0 || (options.okCodes ?? []).includes(code))) return outcome.stdout;
    throw new GitError(
      `git ${args[0] ?? ''} failed (${code ?? 'signal'}): ${outcome.stderr.toString('utf8').trim().slice(0, 500)}`,
    );
  }

  /**
   * Creates the repository on first use. A stale `index.lock` can only be a crashed host's (the data
   * directory lock keeps a second host out), so it is removed: the index is a cache, never the record.
   */
  private open(): Promise<void> {
    this.opened ??= this.create().catch((error: unknown) => {
      this.opened = null;
      throw error;
    });
    return this.opened;
  }

  private async create(): Promise<void> {
    if (!existsSync(path.join(this.gitDir, 'HEAD'))) {
      mkdirSync(this.gitDir, { recursive: true });
      await this.git(['init', '-q']);
      for (const [key, value] of [
        ['core.bare', 'false'],
        ['core.autocrlf', 'false'],
        ['core.fsmonitor', 'false'],
        ['core.untrackedCache', 'true'],
        ['core.quotepath', 'false'],
        ['gc.auto', '0'],
      ] as const) {
        await this.git(['config', key, value]);
      }
      writeFileSync(path.join(this.gitDir, 'no-global-config'), '');
    }
    rmSync(path.join(this.gitDir, 'index.lock'), { force: true });
    await this.excludeFolders();
  }

  /** Keeps the excluded folders inside the work tree out: ignored from now on, and dropped from the index if an older Cairn copied them. */
  private async excludeFolders(): Promise<void> {
    const inside = this.excludedInside().map((folder) => path.relative(this.workTree, folder));
    if (inside.length === 0) return;
    mkdirSync(path.join(this.gitDir, 'info'), { recursive: true });
    const patterns = inside.map(
      (relative) =>
        `/${relative
          .split(path.sep)
          .join('/')
          .replace(/[\\*?[\]!#]/g, (character) => `\\${character}`)}/`,
    );
    writeFileSync(
      path.join(this.gitDir, 'info', 'exclude'),
      `# Cairn's own data: never part of a checkpoint\n${patterns.join('\n')}\n`,
    );
    await this.git([
      'rm',
      '-r',
      '-q',
      '-f',
      '--cached',
      '--ignore-unmatch',
      '--',
      ...inside.map((relative) => relative.split(path.sep).join('/')),
    ]);
  }

  /**
   * Brings the shadow index up to date with the workspace and writes its tree. Incremental: git's
   * stat cache answers for unchanged files; only new, changed and removed paths are (re)hashed.
   * What git cannot take never stops it: a path under a symlink or under what is no longer a folder
   * is no longer there (the link itself is kept, as a link); a file git cannot read keeps the state
   * it had and is named in `unreadable`.
   */
  async snapshot(options: { readonly background?: boolean } = {}): Promise<Snapshot> {
    await this.open();
    const run = { background: options.background === true };
    await this.git(['update-index', '-q', '--refresh'], { okCodes: [1], ...run });
    const changed = splitZ(await this.git(['diff-files', '--name-only', '-z'], run));
    const untracked = splitZ(await this.git(['ls-files', '--others', '--exclude-standard', '-z'], run));
    return this.take([...changed, ...untracked], run);
  }

  /**
   * A tree of `base` (a tree or commit; null for none) with `paths` as the workspace holds them now,
   * made in an index of its own: neither the shared index nor the queue of `exclusive` is touched, so
   * it never waits for a snapshot of the whole workspace. A path that is not in the workspace (or is
   * in a folder left out) is not in the tree.
   */
  async treeWith(base: string | null, paths: readonly string[]): Promise<Snapshot> {
    await this.open();
    this.scratch += 1;
    const index = path.join(this.gitDir, `index-partial-${process.pid}-${this.scratch}`);
    try {
      if (base !== null) await this.git(['read-tree', base], { index });
      return await this.take(
        paths.filter((file) => !this.isExcluded(file)),
        { index },
      );
    } finally {
      rmSync(index, { force: true });
      rmSync(`${index}.lock`, { force: true });
    }
  }

  /**
   * Whether `relative` lies in a folder never copied (Cairn's data directory) inside the work tree. A
   * work tree that is itself inside one (a session's worktree under `<data dir>/worktrees/`) is copied.
   */
  isExcluded(relative: string): boolean {
    const absolute = path.resolve(this.workTree, relative);
    return this.excludedInside().some((folder) => absolute === folder || absolute.startsWith(folder + path.sep));
  }

  /** The excluded folders that lie inside the work tree (not the work tree itself, nor one holding it). */
  private excludedInside(): readonly string[] {
    return this.excluded.filter((folder) => {
      const relative = path.relative(this.workTree, folder);
      return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
    });
  }

  /** Brings `paths` in the index up to date with the workspace (added, rehashed or removed) and writes its tree. */
  private async take(paths: readonly string[], run: Pick<GitOptions, 'index' | 'background'>): Promise<Snapshot> {
    const add: string[] = [];
    const drop: string[] = [];
    const tooLarge: string[] = [];
    const folders = new FolderCheck(this.workTree);
    for (const relative of paths) {
      if (relative.endsWith('/')) continue; // an embedded repository: its own .git is not ours to copy
      const stat = folders.under(relative) ? lstatOrNull(path.join(this.workTree, relative)) : null;
      if (stat === null) drop.push(relative);
      else if (stat.isFile() && stat.size > this.maxFileBytes) {
        tooLarge.push(relative);
        drop.push(relative);
      } else if (stat.isFile() || stat.isSymbolicLink()) add.push(relative);
      else drop.push(relative);
    }
    if (drop.length > 0)
      await this.git(['update-index', '--force-remove', '-z', '--stdin'], { input: joinZ(drop), ...run });
    const unreadable = await this.addPaths(add, run);
    const tree = (await this.git(['write-tree'], run)).toString('utf8').trim();
    return { tree, tooLarge, unreadable };
  }

  /**
   * `base` with `entries` put in as they are (a null entry: the path removed), in an index of its
   * own: the tree a checkpoint before holds when some paths' earlier state was taken on its own.
   */
  async treeWithEntries(base: string, entries: ReadonlyMap<string, TreeEntry | null>): Promise<string> {
    await this.open();
    this.scratch += 1;
    const index = path.join(this.gitDir, `index-partial-${process.pid}-${this.scratch}`);
    try {
      await this.git(['read-tree', base], { index });
      const removed = [...entries].filter(([, entry]) => entry === null).map(([file]) => file);
      const kept = [...entries].flatMap(([file, entry]) =>
        entry === null ? [] : [`${entry.mode} ${entry.oid}\t${file}\0`],
      );
      if (removed.length > 0)
        await this.git(['update-index', '--force-remove', '-z', '--stdin'], { input: joinZ(removed), index });
      if (kept.length > 0) await this.git(['update-index', '-z', '--index-info'], { input: kept.join(''), index });
      return (await this.git(['write-tree'], { index })).toString('utf8').trim();
    } finally {
      rmSync(index, { force: true });
      rmSync(`${index}.lock`, { force: true });
    }
  }

  /** A commit's message. */
  async message(commit: string): Promise<string> {
    return (await this.git(['log', '-1', '--format=%B', commit])).toString('utf8');
  }

  /**
   * Adds `paths` to the index in one call; when git refuses, in halves, down to the files it cannot
   * take (a file it may not read, one that became something else meanwhile), which are returned.
   */
  private async addPaths(
    paths: readonly string[],
    run: Pick<GitOptions, 'index' | 'background'>,
  ): Promise<UnreadableFile[]> {
    if (paths.length === 0) return [];
    try {
      await this.git(['update-index', '--add', '--remove', '--replace', '-z', '--stdin'], {
        input: joinZ(paths),
        ...run,
      });
      return [];
    } catch (error) {
      if (!(error instanceof GitError)) throw error;
      if (paths.length === 1) return [{ path: paths[0] ?? '', reason: error.message }];
      const half = Math.ceil(paths.length / 2);
      return [...(await this.addPaths(paths.slice(0, half), run)), ...(await this.addPaths(paths.slice(half), run))];
    }
  }

  /** Writes a commit object for `tree` (objects first: a ref may point at it only afterwards). */
  async commit(tree: string, parent: string | null, message: string): Promise<string> {
    await this.open();
    const args = ['commit-tree', tree, ...(parent === null ? [] : ['-p', parent]), '-m', message];
    return (await this.git(args)).toString('utf8').trim();
  }

  /** Points `ref` at `commit` (git writes the ref through a lock file and a rename: all or nothing). */
  async setRef(ref: string, commit: string): Promise<void> {
    await this.git(['update-ref', ref, commit]);
  }

  /** The commit `ref` points at, or null when the ref does not exist. */
  async readRef(ref: string): Promise<string | null> {
    await this.open();
    const out = await this.git(['rev-parse', '-q', '--verify', `${ref}^{commit}`], { okCodes: [1] });
    const oid = out.toString('utf8').trim();
    return oid === '' ? null : oid;
  }

  /** What changed from `from` to `to` (trees or commits), with line counts; renames are a delete and a create. */
  async numstat(from: string | null, to: string): Promise<NumstatEntry[]> {
    const base = from ?? EMPTY_TREE;
    const kinds = splitZ(await this.git(['diff-tree', '-r', '--no-renames', '--name-status', '-z', base, to]));
    const changeOf = new Map<string, NumstatEntry['change']>();
    for (let index = 0; index + 1 < kinds.length; index += 2) {
      const status = kinds[index];
      changeOf.set(kinds[index + 1] ?? '', status === 'A' ? 'created' : status === 'D' ? 'deleted' : 'modified');
    }
    const counts = splitZ(await this.git(['diff-tree', '-r', '--no-renames', '--numstat', '-z', base, to]));
    const entries: NumstatEntry[] = [];
    for (const record of counts) {
      const match = /^(-|\d+)\t(-|\d+)\t([\s\S]*)$/.exec(record);
      if (match === null) continue;
      const file = match[3] ?? '';
      entries.push({
        path: file,
        change: changeOf.get(file) ?? 'modified',
        added: match[1] === '-' ? null : Number(match[1]),
        removed: match[2] === '-' ? null : Number(match[2]),
      });
    }
    return entries;
  }

  /** The unified diff of one path between two trees or commits. */
  async diff(from: string, to: string, file: string): Promise<string> {
    return (await this.git(['diff', '--no-color', '--no-ext-diff', '--no-renames', from, to, '--', file])).toString(
      'utf8',
    );
  }

  /** The entries of `paths` in `treeish`. */
  async entries(treeish: string, paths: readonly string[]): Promise<Map<string, TreeEntry>> {
    const found = new Map<string, TreeEntry>();
    if (paths.length === 0) return found;
    const lines = splitZ(await this.git(['ls-tree', '-r', '-z', '--full-tree', treeish, '--', ...paths]));
    for (const line of lines) {
      const match = /^(\d+) \w+ ([0-9a-f]+)\t([\s\S]*)$/.exec(line);
      if (match !== null) found.set(match[3] ?? '', { mode: match[1] ?? '', oid: match[2] ?? '' });
    }
    return found;
  }

  async blob(oid: string): Promise<Buffer> {
    return this.git(['cat-file', 'blob', oid]);
  }
}
