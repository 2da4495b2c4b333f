import { readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { PermissionMode } from '../../../src-shared/model';

/**
 * Files inside a workspace that make code run later, outside any sandbox: git hooks and git config
 * (`core.hooksPath`, filters, `core.fsmonitor`), Cairn's `.cairn` folder, Claude's project settings.
 * The wall mounts them read-only for sandboxed commands (`sandbox-layout.ts`); this is the same rule
 * for Cairn's own file tools (write_file, edit_file) and an ACP agent's `fs/write_text_file`, which
 * write on the host. Paths are compared as real paths (links resolved by the caller) and without
 * regard to case, so `./.git/../.git/hooks`, `.GIT/hooks` (on a case-insensitive disk the same folder)
 * or a link into `.git/hooks` are caught too.
 */

/** The paths this rule names for the person and the model. */
const WHAT = 'git hooks and config, .cairn, .claude/settings*.json';

/** Whether a write to a run-later file may go through: Full always, Ask only when the person approved that very write. */
export function mayWriteRunLater(mode: PermissionMode, approvedThisWrite: boolean): boolean {
  return mode === 'full' || (mode === 'ask' && approvedThisWrite);
}

/** The refusal the model sees for a write to `shown` (workspace-relative) in `mode`. */
export function runLaterRefusal(shown: string, mode: PermissionMode): string {
  const how =
    mode === 'ask'
      ? 'In Ask it is written only when the person approves that very write on its card; "Allow for this session" does not cover it.'
      : mode === 'auto'
        ? 'In Auto an agent never writes it; the person can change it, or switch the session to Ask and approve the write.'
        : 'This session may not write it.';
  return `"${shown}" is read-only for agents: it makes code run later, outside the sandbox (${WHAT}). ${how}`;
}

async function isFile(target: string): Promise<boolean> {
  return stat(target).then(
    (entry) => entry.isFile(),
    () => false,
  );
}

async function isFolder(target: string): Promise<boolean> {
  return stat(target).then(
    (entry) => entry.isDirectory(),
    () => false,
  );
}

/** A git directory as git recognises one: a `HEAD` file and an `objects` folder, or (a worktree's) a `commondir` file. */
async function isGitDir(folder: string): Promise<boolean> {
  if (!(await isFile(path.join(folder, 'HEAD')))) return false;
  return (await isFolder(path.join(folder, 'objects'))) || isFile(path.join(folder, 'commondir'));
}

const inside = (target: string, folder: string) => target === folder || target.startsWith(`${folder}${path.sep}`);

/** The real path `text` names, relative to `base`; null when it does not exist. */
async function realFrom(base: string, text: string): Promise<string | null> {
  return realpath(path.resolve(base, text.trim())).catch(() => null);
}

/** The git directories of the workspace's own repository: `.git` (a folder, or a worktree's file naming one) and its common dir. */
async function workspaceGitDirs(root: string): Promise<string[]> {
  const dotGit = path.join(root, '.git');
  if (await isFolder(dotGit)) return [dotGit];
  if (!(await isFile(dotGit))) return (await isGitDir(root)) ? [root] : [];
  const named = /^gitdir: (.+)$/m.exec(await readFile(dotGit, 'utf8').catch(() => ''))?.[1];
  const gitDir = named === undefined ? null : await realFrom(root, named);
  if (gitDir === null) return [];
  const common = await readFile(path.join(gitDir, 'commondir'), 'utf8').then(
    (text) => realFrom(gitDir, text),
    () => null,
  );
  return common === null ? [gitDir] : [gitDir, common];
}

/** The hooks folders the repository's config names (`core.hooksPath`), resolved against the workspace. */
async function configuredHookFolders(root: string, gitDirs: readonly string[]): Promise<string[]> {
  const folders: string[] = [];
  for (const gitDir of gitDirs) {
    for (const file of ['config', 'config.worktree']) {
      const text = await readFile(path.join(gitDir, file), 'utf8').catch(() => '');
      for (const match of text.matchAll(/^\s*hookspath\s*=\s*"?([^"\n]+?)"?\s*$/gim)) {
        // Not made yet, it is where git would look once it is.
        const named = match[1] ?? '';
        folders.push((await realFrom(root, named)) ?? path.resolve(root, named.trim()));
      }
    }
  }
  return folders;
}

/** Inside a git directory (by name or by content), what runs code: `hooks/**`, `config`, `config.worktree`. */
function runsInGitDir(below: readonly string[]): boolean {
  if (below.length === 0) return false;
  return below[0] === 'hooks' || (below.length === 1 && (below[0] === 'config' || below[0] === 'config.worktree'));
}

/**
 * Whether `absolute` (a real path inside the real workspace `root`) is a file that makes code run
 * later: a file named `.git` (a worktree's pointer to its git directory); under any `.git` folder, its
 * `hooks`, its `config`, and those of the git directories it holds (`modules/<name>`,
 * `worktrees/<id>`); the same in any folder git would take for a git directory (a bare repository in
 * the workspace, the one a worktree's `.git` file names); the hooks folder the config names
 * (`core.hooksPath`, e.g. `.husky`); any `.cairn` folder; `.claude/settings.json` and
 * `.claude/settings.local.json`.
 */
export async function isRunLaterFile(root: string, absolute: string): Promise<boolean> {
  if (!inside(absolute, root)) return false;
  const parts = path.relative(root, absolute).split(path.sep).filter(Boolean);
  const lower = parts.map((part) => part.toLowerCase());
  if (lower.includes('.cairn')) return true;
  const last = lower.length - 1;
  if (
    last >= 1 &&
    lower[last - 1] === '.claude' &&
    ['settings.json', 'settings.local.json'].includes(lower[last] ?? '')
  )
    return true;
  for (let index = 0; index <= last; index += 1) {
    if (lower[index] !== '.git') continue;
    if (index === last) return true;
    const below = lower.slice(index + 1);
    if (below.includes('hooks') || below.at(-1) === 'config' || below.at(-1) === 'config.worktree') return true;
  }
  // A folder git takes for a git directory, whatever its name: the workspace itself (bare) and each folder on the way.
  for (let depth = 0; depth < parts.length; depth += 1) {
    if (runsInGitDir(lower.slice(depth)) && (await isGitDir(path.join(root, ...parts.slice(0, depth))))) return true;
  }
  const gitDirs = await workspaceGitDirs(root);
  for (const gitDir of gitDirs) {
    const below = path.relative(gitDir, absolute);
    if (inside(absolute, gitDir) && runsInGitDir(below.toLowerCase().split(path.sep).filter(Boolean))) return true;
  }
  return (await configuredHookFolders(root, gitDirs)).some((folder) => inside(absolute, folder) && folder !== root);
}
