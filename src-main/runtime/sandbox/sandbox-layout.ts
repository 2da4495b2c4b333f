import { existsSync, mkdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { DeniedPath, SandboxLayout } from './bwrap-args';

/**
 * What a sandboxed command may touch, worked out from the machine as it is now: which of the denied
 * and writable paths exist, their real paths (a symlinked ~/.ssh is hidden where its files really
 * are), and whether the workspace is a git worktree.
 */

/** Secrets under the home folder: credentials, keys, cloud and cluster logins, browser profiles. */
export const DENIED_IN_HOME = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.config/gcloud',
  '.azure',
  '.kube',
  '.docker/config.json',
  '.netrc',
  '.git-credentials',
  '.config/gh',
  '.npmrc',
  '.pypirc',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.mozilla',
  '.config/google-chrome',
  '.config/chromium',
  '.config/BraveSoftware',
  '.config/microsoft-edge',
  '.var/app',
] as const;

/** Package caches, writable so package managers work. */
export const CACHES_IN_HOME = ['.npm', '.cache', '.cargo/registry', '.cargo/git', '.local/share/pnpm'] as const;

/**
 * Inside the workspace, files that make code run later: read-only inside, so no command plants one
 * (and a worktree's `.git` file). Cairn's own file tools keep the same rule (`run-later-files.ts`).
 */
export const READ_ONLY_IN_WORKSPACE = [
  '.git/hooks',
  '.git/config',
  '.git/config.worktree',
  '.cairn',
  '.claude/settings.json',
  '.claude/settings.local.json',
] as const;

export interface LayoutInputs {
  readonly workspace: string;
  readonly home: string;
  /** Cairn's data directory: hidden, except its installed ACP agents. */
  readonly dataDir: string;
  readonly tmpDir: string;
  readonly extraDenied: readonly string[];
  readonly extraWritable: readonly string[];
}

function real(target: string): string | null {
  try {
    return realpathSync(target);
  } catch {
    return null;
  }
}

const inside = (target: string, folder: string) => target === folder || target.startsWith(`${folder}/`);

function denied(target: string): DeniedPath | null {
  const resolved = real(target);
  if (resolved === null) return null;
  return { path: resolved, kind: statSync(resolved).isDirectory() ? 'folder' : 'file' };
}

/**
 * The parts of a repository's .git a worktree writes, when `workspace` is a worktree whose repository
 * the command could not have made up: its `.git` file names `<common>/worktrees/<id>`, that folder
 * names this workspace back, and the repository is outside everything a sandboxed command can write.
 */
function worktreeGitParts(workspace: string, writableAreas: readonly string[]): string[] {
  const dotGit = path.join(workspace, '.git');
  let text: string;
  try {
    if (!statSync(dotGit).isFile()) return [];
    text = readFileSync(dotGit, 'utf8');
  } catch {
    return [];
  }
  const match = /^gitdir: (.+)$/m.exec(text);
  const gitDir = match?.[1] === undefined ? null : real(path.resolve(workspace, match[1].trim()));
  if (gitDir === null || path.basename(path.dirname(gitDir)) !== 'worktrees') return [];
  const common = path.dirname(path.dirname(gitDir));
  if (writableAreas.some((area) => inside(common, area))) return [];
  try {
    if (real(path.dirname(readFileSync(path.join(gitDir, 'gitdir'), 'utf8').trim())) !== workspace) return [];
  } catch {
    return [];
  }
  return [
    gitDir,
    ...['objects', 'refs', 'logs'].map((part) => path.join(common, part)).filter((part) => existsSync(part)),
  ];
}

export function sandboxLayout(inputs: LayoutInputs): SandboxLayout {
  const workspace = real(inputs.workspace) ?? inputs.workspace;
  const caches = CACHES_IN_HOME.map((cache) => real(path.join(inputs.home, cache))).filter(
    (cache): cache is string => cache !== null,
  );
  const extraWritable = inputs.extraWritable.map(real).filter((folder): folder is string => folder !== null);
  const areas = [workspace, inputs.tmpDir, ...caches, ...extraWritable];
  const dataDir = real(inputs.dataDir);
  const deniedPaths = [
    ...DENIED_IN_HOME.map((entry) => path.join(inputs.home, entry)),
    inputs.dataDir,
    ...inputs.extraDenied,
  ]
    .map(denied)
    .filter((entry): entry is DeniedPath => entry !== null);
  const agents = dataDir === null ? null : real(path.join(dataDir, 'agents'));
  // A repository without a hooks folder would let a command create one; an empty one is made first.
  const gitFolder = path.join(workspace, '.git');
  if (existsSync(gitFolder) && statSync(gitFolder).isDirectory())
    mkdirSync(path.join(gitFolder, 'hooks'), { recursive: true });
  // A worktree's `.git` file names its git directory: rewritten, it would point git at hooks a command made.
  const pointer = existsSync(gitFolder) && statSync(gitFolder).isFile() ? ['.git'] : [];
  const readOnly = [...READ_ONLY_IN_WORKSPACE, ...pointer, ...configuredHooksPaths(workspace)]
    .map((entry) => real(path.resolve(workspace, entry)))
    .filter((entry): entry is string => entry !== null && inside(entry, workspace));
  const worktreeParts = worktreeGitParts(workspace, areas);
  // A worktree's own git directory is writable (git writes its index and HEAD there), but not its config.
  const worktreeConfig = worktreeParts.length === 0 ? null : real(path.join(worktreeParts[0] ?? '', 'config.worktree'));
  return {
    tmpDir: inputs.tmpDir,
    caches: [...caches, ...extraWritable],
    writable: [workspace, ...worktreeParts],
    denied: deniedPaths,
    readableAgain: agents === null ? [] : [agents],
    readOnly: worktreeConfig === null ? readOnly : [...readOnly, worktreeConfig],
    cwd: workspace,
  };
}

/** The git directory a worktree's `.git` file names (`gitdir: …`), or null where `.git` is no such file. */
export function worktreeGitDir(workspace: string): string | null {
  try {
    const dotGit = path.join(workspace, '.git');
    if (!statSync(dotGit).isFile()) return null;
    const named = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
    return named === undefined ? null : path.resolve(workspace, named);
  } catch {
    return null;
  }
}

/**
 * The hooks folders the workspace's git config names (`core.hooksPath`, e.g. `.husky`), as written
 * (relative to the workspace or absolute): git runs what is there, unsandboxed, at the next commit.
 * Read from the repository's `config` (and a worktree's git directory's, through its `.git` file).
 */
export function configuredHooksPaths(workspace: string): string[] {
  const gitDirs: string[] = [];
  const dotGit = path.join(workspace, '.git');
  try {
    if (statSync(dotGit).isDirectory()) gitDirs.push(dotGit);
    else {
      const named = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
      if (named !== undefined) {
        const gitDir = path.resolve(workspace, named);
        gitDirs.push(gitDir);
        const common = readFileSync(path.join(gitDir, 'commondir'), 'utf8').trim();
        gitDirs.push(path.resolve(gitDir, common));
      }
    }
  } catch {
    // no repository, or one this cannot read: nothing configured
  }
  const folders: string[] = [];
  for (const gitDir of gitDirs)
    for (const file of ['config', 'config.worktree']) {
      let text = '';
      try {
        text = readFileSync(path.join(gitDir, file), 'utf8');
      } catch {
        continue;
      }
      for (const match of text.matchAll(/^\s*hookspath\s*=\s*"?([^"\n]+?)"?\s*$/gim))
        if (match[1] !== undefined) folders.push(match[1].trim());
    }
  return folders;
}
