import type { AcpPresetKind } from './connection-model';

/** What is installed: a preset agent, or an npm agent of the ACP registry by its id (`registry:qwen-code`). */
export type AcpInstallKey = AcpPresetKind | `registry:${string}`;

/** The registry id of a registry agent's install key; null for a preset. */
export function registryIdOf(key: AcpInstallKey): string | null {
  return key.startsWith('registry:') ? key.slice('registry:'.length) : null;
}

/**
 * Where an ACP agent's package stands: not found anywhere Cairn looks, being installed into
 * `<data directory>/agents` (npm running), installed (with the version found), or the last install
 * failed or was cancelled (and nothing of it is left to be taken for installed).
 */
export type AcpInstallStatus = 'not_installed' | 'installing' | 'installed' | 'failed' | 'cancelled';

export interface AcpInstallState {
  readonly kind: AcpInstallKey;
  /** The pinned package npm installs, e.g. `@agentclientprotocol/claude-agent-acp@0.101.0`. */
  readonly packageSpec: string;
  /** About how much the install takes on disk, e.g. "≈360 MB"; null where not measured. */
  readonly sizeHint: string | null;
  readonly status: AcpInstallStatus;
  /** The version found when installed (the data directory's, beside Cairn, or `null` for a program on PATH). */
  readonly installedVersion: string | null;
  /** Where the installed agent was found. */
  readonly location: 'data_dir' | 'beside_cairn' | 'path' | null;
  /** Why the last install failed (npm's own error lines), or null. */
  readonly error: string | null;
  /** npm's last output lines of the running (or last) install, oldest first. */
  readonly output: readonly string[];
  readonly updatedAt: number;
  /**
   * A registry agent installed in the data directory: the command line that starts it (its program in
   * `agents/node_modules/.bin` and the registry's arguments), for a custom ACP connection.
   */
  readonly command?: string;
}

/** How many of npm's output lines a state keeps. */
export const ACP_INSTALL_OUTPUT_LINES = 12;
