import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { childEnvironment } from '../shell/child-environment';

/**
 * Whether commands can be sandboxed here, decided once when the host starts: Linux with bubblewrap
 * and socat on PATH, and bubblewrap able to make its namespaces (a container or a kernel setting can
 * forbid them). Elsewhere, or without them, the reason names what is missing and what to install.
 */
export type SandboxAvailability =
  | { readonly available: true; readonly bwrap: string; readonly socat: string }
  | { readonly available: false; readonly reason: string };

/** How the host decides: detect (the default), or off (tests that must not depend on the machine). */
export type SandboxSetting = 'detect' | 'off';

export const SANDBOX_OFF: SandboxAvailability = {
  available: false,
  reason: 'The sandbox is turned off for this host.',
};

const INSTALL_HINT =
  'Install bubblewrap and socat (Debian/Ubuntu: sudo apt-get install bubblewrap socat; Fedora: sudo dnf install bubblewrap socat).';

function onPath(name: string, env: NodeJS.ProcessEnv): string | null {
  for (const folder of (env.PATH ?? '').split(path.delimiter)) {
    if (folder === '') continue;
    const candidate = path.join(folder, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

export function detectSandbox(
  setting: SandboxSetting,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): SandboxAvailability {
  if (setting === 'off') return SANDBOX_OFF;
  if (platform !== 'linux')
    return {
      available: false,
      reason: `Cairn has no sandbox for ${platform === 'win32' ? 'Windows' : platform === 'darwin' ? 'macOS' : platform} yet.`,
    };
  const bwrap = onPath('bwrap', env);
  const socat = onPath('socat', env);
  const missing = [bwrap === null ? 'bubblewrap (bwrap)' : null, socat === null ? 'socat' : null].filter(
    (name) => name !== null,
  );
  if (bwrap === null || socat === null)
    return { available: false, reason: `${missing.join(' and ')} not found. ${INSTALL_HINT}` };
  const probe = spawnSync(
    bwrap,
    [
      '--ro-bind',
      '/',
      '/',
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      '--unshare-pid',
      '--unshare-net',
      '--die-with-parent',
      '--',
      'true',
    ],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: childEnvironment({ scrubSecrets: true }),
      timeout: 10_000,
      encoding: 'utf8',
    },
  );
  if (probe.status !== 0) {
    const why = (probe.stderr ?? '').trim() || probe.error?.message || `exit ${String(probe.status)}`;
    return {
      available: false,
      reason: `bubblewrap cannot make its namespaces here (${why}). Unprivileged user namespaces may be turned off (kernel.unprivileged_userns_clone).`,
    };
  }
  return { available: true, bwrap, socat };
}
