import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { childEnvironment } from '../shell/child-environment';
import type { GitRunner } from './git-runner';
import { ShadowRepo } from './shadow-git';

/** Whether the system git runs, and why not. Checked once per host. */
export async function gitAvailability(
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ readonly available: true } | { readonly available: false; readonly reason: string }> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['--version'],
      { timeout: 10_000, env: childEnvironment({ base: env, scrubSecrets: false }) },
      (error) => {
        resolve(
          error === null
            ? { available: true }
            : {
                available: false,
                reason: `File checkpoints need git, and it could not be run (${error.message.split('\n')[0]}). Install git to review and undo agents’ file changes.`,
              },
        );
      },
    );
  });
}

/** The shadow repository of one workspace, under `<dataDir>/checkpoints/`. */
export function shadowDirFor(dataDir: string, workspace: string): string {
  const key = createHash('sha256').update(workspace).digest('hex').slice(0, 20);
  return path.join(dataDir, 'checkpoints', `${key}.git`);
}

/**
 * The shadow repository of `workspace`, its git run by `runner`. It never copies the data directory
 * (where a workspace holds it), nor the checkpoints folder within it.
 */
export function shadowRepoFor(
  dataDir: string,
  workspace: string,
  maxFileBytes: number | undefined,
  runner: GitRunner,
): ShadowRepo {
  const excluded = [dataDir, path.join(dataDir, 'checkpoints')];
  return new ShadowRepo(shadowDirFor(dataDir, workspace), workspace, maxFileBytes, excluded, runner);
}
