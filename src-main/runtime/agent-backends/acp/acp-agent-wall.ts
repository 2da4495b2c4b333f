import { closeSync, mkdirSync, openSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import type { AcpAgentCommand, AcpPresetKind } from '../../../../src-shared/connection-model';
import type { AgentWall } from '../../sandbox/sandbox-service';

/**
 * What an ACP agent gets inside the sandbox (Auto) beside the session's workspace: its own state
 * writable — what each known agent writes under its HOME, found by running it — and the network to
 * its model endpoint, the connection's base URL (or the agent's default service), beside the session's
 * and the global allowlists (`SandboxService.prepare` adds those).
 */

/** Under the agent's HOME, what it writes: folders, and files (`file: true`). */
const STATE: Readonly<Record<AcpPresetKind, readonly { readonly path: string; readonly file?: true }[]>> = {
  // Claude Code: its sessions, todos, shell snapshots under ~/.claude; its settings and project list in ~/.claude.json.
  claude: [{ path: '.claude' }, { path: '.claude.json', file: true }],
  gemini: [{ path: '.gemini' }],
  // OpenCode follows XDG: config, data (its sessions), state, cache.
  opencode: [
    { path: '.config/opencode' },
    { path: '.local/share/opencode' },
    { path: '.local/state/opencode' },
    { path: '.cache/opencode' },
  ],
};

/** The service a preset agent talks to when its connection names no base URL. */
const DEFAULT_ENDPOINT: Readonly<Record<AcpPresetKind, string | null>> = {
  claude: 'api.anthropic.com:443',
  gemini: 'generativelanguage.googleapis.com:443',
  opencode: null,
};

/** `host:port` of a base URL, as an allowlist pattern; null when it is not a URL. */
export function endpointPattern(baseUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return null;
  }
  const port = url.port !== '' ? url.port : url.protocol === 'https:' ? '443' : url.protocol === 'http:' ? '80' : null;
  return port === null || url.hostname === '' ? null : `${url.hostname.toLowerCase()}:${port}`;
}

/** The agent's HOME as it will see it: its connection's variable, else the host's. */
export function agentHome(command: Pick<AcpAgentCommand, 'env'>): string {
  return command.env.HOME ?? process.env.HOME ?? os.homedir();
}

/**
 * The wall of an agent started by `command` with its connection's `baseUrl`: its state folders made
 * when missing (a folder must exist to be mounted writable; Claude's ~/.claude.json is made empty),
 * plus `extraWritable` (absolute paths the person named for a custom agent).
 */
export function acpAgentWall(
  command: AcpAgentCommand,
  baseUrl: string | null,
  extraWritable: readonly string[] = [],
): AgentWall {
  const home = agentHome(command);
  const kind = command.preset?.kind;
  const writable: { readonly path: string; readonly file?: true }[] = [
    ...(kind === undefined ? [] : STATE[kind].map((entry) => ({ ...entry, path: join(home, entry.path) }))),
    ...extraWritable.map((path) => ({ path })),
  ];
  for (const entry of writable) {
    try {
      if (entry.file === true) {
        mkdirSync(join(entry.path, '..'), { recursive: true });
        closeSync(openSync(entry.path, 'a'));
      } else mkdirSync(entry.path, { recursive: true });
    } catch {
      // left out: the agent finds it read-only, as it would on a read-only home
    }
  }
  const endpoint = baseUrl === null ? (kind === undefined ? null : DEFAULT_ENDPOINT[kind]) : endpointPattern(baseUrl);
  return { home, writable: writable.map((entry) => entry.path), hosts: endpoint === null ? [] : [endpoint] };
}
