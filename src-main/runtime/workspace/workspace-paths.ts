import { lstat, readlink, realpath, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * Confinement of the file tools to a session's workspace folder.
 *
 * What it covers: every path a file tool touches is resolved here against the real path of the
 * workspace root (taken once per call, so a root that is itself a symbolic link is followed once and
 * then held still). A path is refused when it
 * - holds a NUL byte;
 * - is relative and climbs out with `..`, or is absolute and lies outside the root;
 * - passes through a symbolic link (in any component, the last one included) whose target lies
 *   outside the root, or whose target does not exist (a dangling link could be written through);
 * - runs through something that is not a folder.
 * `workspace-files.ts` checks again when it opens or writes, so a link swapped in after this check
 * (a rename race) is caught rather than followed. The listing tools (list_files, glob) re-check
 * every name they return with `stillInside`, so a folder swapped for a link while it is read never
 * lends them outside names.
 *
 * What it does NOT cover:
 * - `run_shell`: a shell command is contained by the sandbox (Auto, and Ask's approved commands) or
 *   runs with the app's own rights (Full); this module confines the file tools only.
 * - Which files inside the workspace may be written: files that make code run later (git hooks and
 *   config, .cairn, Claude's settings) are the writing tools' rule, `sandbox/run-later-files.ts`.
 * - Hard links: a hard link inside the workspace to a file elsewhere is, to the file system, a file
 *   inside the workspace; it is read and written like one.
 * - Mount points and bind mounts inside the workspace are treated as folders of the workspace.
 * - A folder moved out of the workspace by another process while a write is in flight (see
 *   `workspace-files.ts`): the write lands in that folder, wherever it now is, never in a path an
 *   attacker names.
 */

export interface ResolveOptions {
  /** Refuse when the path does not exist yet (reads). */
  readonly mustExist?: boolean;
  /** The path will be written as a file: refuse the root itself and existing folders. */
  readonly forWrite?: boolean;
}

export type WorkspacePath =
  | {
      readonly ok: true;
      /** The real absolute path (symbolic links inside the workspace resolved). */
      readonly absolute: string;
      /** The same path relative to the workspace, with `/` separators; `.` for the root itself. */
      readonly relative: string;
      /** The real path of the workspace root this resolution was made against. */
      readonly root: string;
      readonly exists: boolean;
    }
  | { readonly ok: false; readonly message: string };

export type ResolvedWorkspacePath = Extract<WorkspacePath, { ok: true }>;

function refuse(message: string): WorkspacePath {
  return { ok: false, message };
}

/** `child` relative to `base` when it lies inside it (`''` for `base` itself), otherwise null. */
export function relativeInside(base: string, child: string): string | null {
  const relative = path.relative(base, child);
  if (relative === '') return '';
  if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) return null;
  return relative;
}

export function isInside(base: string, child: string): boolean {
  return relativeInside(base, child) !== null;
}

/** A workspace-relative path as tools show it: `/` separators, `.` for the root. */
export function displayPath(relative: string): string {
  return relative === '' ? '.' : relative.split(path.sep).join('/');
}

function errorCode(error: unknown): string {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'unknown error';
}

/** Folders that are the system's own, not a person's files: a pseudo-filesystem, or the whole disk. */
const SYSTEM_ROOTS = ['/proc', '/sys', '/dev'];

/**
 * Why a folder (its real path, links resolved) cannot be a workspace, or null if it can: the
 * filesystem root and the pseudo-filesystems (/proc, /sys, /dev and anything under them — which is how
 * `/proc/self/root` resolves to `/`) would hand an agent the whole machine or the kernel's own files.
 */
export function systemFolderReason(realFolder: string): string | null {
  if (process.platform === 'win32')
    return path.parse(realFolder).root === realFolder
      ? `${realFolder} is a whole drive; choose a project folder on it.`
      : null;
  if (realFolder === '/')
    return 'The filesystem root (/) cannot be a workspace: it would give the agent the whole machine. Choose a project folder.';
  const system = SYSTEM_ROOTS.find((root) => realFolder === root || realFolder.startsWith(`${root}/`));
  return system === undefined
    ? null
    : `${realFolder} is inside ${system}, a system pseudo-filesystem, not a folder of files; choose a project folder.`;
}

/** The real path of the workspace root, or a message saying why it cannot be used. */
export async function realWorkspaceRoot(
  root: string,
): Promise<{ ok: true; root: string } | { ok: false; message: string }> {
  if (root.includes('\0')) return { ok: false, message: 'The workspace folder path contains a NUL byte.' };
  try {
    const real = await realpath(root);
    if (!(await stat(real)).isDirectory()) return { ok: false, message: `The workspace ${root} is not a folder.` };
    const system = systemFolderReason(real);
    if (system !== null) return { ok: false, message: system };
    return { ok: true, root: real };
  } catch (error) {
    return { ok: false, message: `The workspace folder ${root} cannot be opened (${errorCode(error)}).` };
  }
}

/**
 * Resolves `requested` (relative to the workspace, or absolute inside it) to a real path inside the
 * workspace, or says why it is refused, in words meant for both the model and the person.
 */
export async function resolveInWorkspace(
  root: string,
  requested: string,
  options: ResolveOptions = {},
): Promise<WorkspacePath> {
  if (requested.includes('\0')) return refuse('The path contains a NUL byte, which no file name can hold.');
  if (requested.trim() === '')
    return refuse(
      'The path is empty. Give a path relative to the workspace, e.g. "src/index.ts" or "." for the workspace itself.',
    );
  const rootResult = await realWorkspaceRoot(root);
  if (!rootResult.ok) return rootResult;
  const realRoot = rootResult.root;

  let relative: string;
  if (path.isAbsolute(requested)) {
    const absolute = path.resolve(requested);
    const inside = relativeInside(path.resolve(root), absolute) ?? relativeInside(realRoot, absolute);
    if (inside === null) {
      return refuse(
        `"${requested}" is outside the workspace (${realRoot}). The file tools only reach paths inside it; use a path relative to the workspace.`,
      );
    }
    relative = inside;
  } else {
    const normalized = path.normalize(requested);
    if (normalized === '..' || normalized.startsWith(`..${path.sep}`)) {
      return refuse(
        `"${requested}" climbs out of the workspace with "..". The file tools only reach paths inside ${realRoot}.`,
      );
    }
    relative = normalized === '.' || normalized === `.${path.sep}` ? '' : normalized.replace(/[\\/]+$/, '');
  }

  const parts = relative === '' ? [] : relative.split(path.sep).filter((part) => part !== '' && part !== '.');
  let current = realRoot;
  let exists = true;
  for (let index = 0; index < parts.length; index += 1) {
    const next = path.join(current, parts[index] ?? '');
    const shown = displayPath(parts.slice(0, index + 1).join(path.sep));
    let entry;
    try {
      entry = await lstat(next);
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ENOENT') {
        exists = false;
        current = path.join(current, ...parts.slice(index));
        break;
      }
      if (code === 'ENOTDIR') return refuse(`"${requested}" runs through a file as if it were a folder.`);
      return refuse(`"${shown}" cannot be examined (${code}).`);
    }
    if (entry.isSymbolicLink()) {
      let target: string;
      try {
        target = await realpath(next);
      } catch {
        const pointsTo = await readlink(next).catch(() => '?');
        return refuse(
          `"${shown}" is a symbolic link to "${pointsTo}", which does not exist (or loops). The file tools do not follow it.`,
        );
      }
      if (!isInside(realRoot, target)) {
        return refuse(
          `"${shown}" is a symbolic link to ${target}, which is outside the workspace (${realRoot}). The file tools do not follow links out of the workspace.`,
        );
      }
      current = target;
    } else {
      if (index < parts.length - 1 && !entry.isDirectory())
        return refuse(`"${requested}" runs through "${shown}", which is not a folder.`);
      current = next;
    }
  }

  if (!exists && options.mustExist)
    return refuse(`"${requested}" does not exist in the workspace. Use list_files or glob to find the right path.`);
  const finalRelative = relativeInside(realRoot, current);
  if (finalRelative === null) return refuse(`"${requested}" resolves outside the workspace.`); // unreachable: every step stays inside
  if (options.forWrite) {
    if (finalRelative === '')
      return refuse('The workspace folder itself cannot be written as a file. Name a file inside it.');
    if (exists && (await stat(current)).isDirectory()) return refuse(`"${requested}" is a folder, not a file.`);
  }
  return { ok: true, absolute: current, relative: displayPath(finalRelative), root: realRoot, exists };
}

/**
 * Whether `relative` (workspace-relative, `/` or platform separators) is, right now, exactly where
 * a walk of the real root says it is: its real path is `root/relative`, so no component on the
 * way is a link (a folder swapped for one while it was listed fails here). For an entry that is
 * itself a symbolic link (listed, never followed), the folder holding it is checked instead.
 */
export async function stillInside(root: string, relative: string, isLink = false): Promise<boolean> {
  const expected = path.join(root, relative);
  const checked = isLink ? path.dirname(expected) : expected;
  try {
    if ((await realpath(checked)) !== checked) return false;
    return !isLink || (await lstat(expected)).isSymbolicLink();
  } catch {
    return false;
  }
}
