import { spawn } from 'node:child_process';
import { childEnvironment } from '../shell/child-environment';

/** A git call that failed: could not run, or exited with a code the caller did not expect. */
export class GitCommandError extends Error {
  constructor(
    message: string,
    readonly code: number | null,
  ) {
    super(message);
  }
}

export interface GitResult {
  readonly code: number;
  readonly stdout: string;
}

export interface GitOptions {
  /** Exit codes that are answers, not failures (e.g. 1 from `merge-tree` for a conflict). */
  readonly okCodes?: readonly number[];
  /** Extra environment (a temporary index, an identity). */
  readonly env?: Readonly<Record<string, string>>;
}

/** Variables of the person's shell that would point git somewhere else than `cwd`'s repository. */
const REPOSITORY_VARIABLES = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_COMMON_DIR',
  'GIT_PREFIX',
];

/**
 * Runs the system git on the person's repository, with their own configuration (identity, attributes,
 * ignore files) but never a prompt, and without repository variables inherited from our environment.
 */
export type Git = (cwd: string, args: readonly string[], options?: GitOptions) => Promise<GitResult>;

export function systemGit(baseEnv: NodeJS.ProcessEnv): Git {
  const env = childEnvironment({
    base: baseEnv,
    scrubSecrets: false,
    extra: { GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' },
  });
  for (const key of REPOSITORY_VARIABLES) delete env[key];
  return (cwd, args, options = {}) =>
    new Promise((resolve, reject) => {
      const child = spawn('git', args, { cwd, env: { ...env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
      child.on('error', (error) => reject(new GitCommandError(`git could not be run: ${error.message}`, null)));
      child.on('close', (code) => {
        const exit = code ?? -1;
        if (exit === 0 || options.okCodes?.includes(exit) === true)
          resolve({ code: exit, stdout: Buffer.concat(out).toString('utf8') });
        else
          reject(
            new GitCommandError(
              `git ${args[0] ?? ''} failed: ${Buffer.concat(err).toString('utf8').trim().split('\n').slice(-3).join(' ')}`,
              exit,
            ),
          );
      });
    });
}

/** Why worktrees cannot be used here, or null when git runs (and is new enough for `merge-tree --write-tree`, 2.38). */
export async function worktreeUnavailability(git: Git, cwd: string): Promise<string | null> {
  let version: string;
  try {
    version = (await git(cwd, ['--version'])).stdout.trim();
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return `Worktrees need git, and it could not be run (${detail}). Install git to give sessions worktrees of their own.`;
  }
  const match = /(\d+)\.(\d+)/.exec(version);
  const [major, minor] = match === null ? [0, 0] : [Number(match[1]), Number(match[2])];
  if (major < 2 || (major === 2 && minor < 38))
    return `Worktrees need git 2.38 or newer to merge safely; this machine has ${version}.`;
  return null;
}
