import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { codexHomeOf } from '../runtime/agent-backends/codex/codex-config';

/*
 * Codex runs each command in a login shell, which runs this machine's shell profile. A profile with
 * pyenv rehashes under a lock file; a test that stops a command mid-rehash leaves the lock behind, and
 * every later command's shell then waits 60 s on it before running (measured: a Codex command printed
 * nothing for its first minute). Test hosts tell Codex's shells to wait a second at most.
 */

/** The setting as a `-c` override, for hosts made in-process. */
export const TEST_SHELL_OVERRIDE = 'shell_environment_policy.set.PYENV_REHASH_TIMEOUT="1"';

/**
 * The same setting in the config.toml of the data directory's CODEX_HOME, for hosts started as a
 * process (serve): Codex layers Cairn's `-c` settings over it. A config already there is left alone.
 */
export function writeTestShellConfig(dataDir: string): void {
  const home = codexHomeOf(dataDir);
  const config = join(home, 'config.toml');
  if (existsSync(config)) return;
  mkdirSync(home, { recursive: true });
  writeFileSync(config, '[shell_environment_policy.set]\nPYENV_REHASH_TIMEOUT = "1"\n');
}
