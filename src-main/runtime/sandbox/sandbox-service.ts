import { chmodSync, existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PermissionMode } from '../../../src-shared/model';
import { bwrapArgs } from './bwrap-args';
import type { SandboxAvailability } from './sandbox-availability';
import { sandboxLayout } from './sandbox-layout';
import { hostAllowed } from './host-patterns';
import { blockedLine, startNetworkProxy } from './network-proxy';
import { ownListeningPorts } from './own-ports';
import { WorkspacePlaceholders } from './workspace-placeholders';

/** Who runs a command: its session and, for an agent's tool call, its turn and call. */
export interface CommandOwner {
  readonly sessionId: string;
  readonly turnId?: string;
  readonly runId?: string;
  readonly toolCallId?: string;
}

/** A request of a sandboxed command the proxy refused. `own`: Cairn's own port, never allowed. */
export interface NetworkBlock extends CommandOwner {
  readonly host: string;
  readonly port: number;
  readonly own: boolean;
}

/** The network of sandboxed commands: what they may reach, and who hears of a refusal. */
export interface SandboxNetworkDeps {
  /** The session's and the global allowlist together, read per request (a change applies at once). */
  readonly allowedHosts: (sessionId: string) => readonly string[];
  /** Hosts allowed for the session's next command only ("Allow once"): taken by the command that starts next. */
  readonly takeOnce?: (sessionId: string) => readonly string[];
  /** Default: the ports this process listens on. */
  readonly ownPorts?: () => readonly number[];
  readonly onBlocked?: (block: NetworkBlock) => void;
  /** Tests map a name to 127.0.0.1. Default: the system's resolver. */
  readonly resolve?: (host: string) => Promise<string>;
}

/** The sandbox for one command: its command line wrapped in bwrap, and its private /tmp to remove after. */
export interface PreparedSandbox {
  /** The host folder that is the command's /tmp. */
  readonly tmpDir: string;
  wrap(argv: readonly string[]): string[];
  /** Hosts the proxy refused so far, each once, in order. */
  blockedHosts(): readonly string[];
  /** Closes the command's proxy and removes its folders. */
  dispose(): void;
}

/** How a command of a session runs: in the sandbox, outside it, or not at all (with the reason). */
export type Confinement = { readonly sandbox: PreparedSandbox } | { readonly unconfined: true } | { readonly refuse: string };

export interface SandboxServiceDeps {
  readonly availability: SandboxAvailability;
  readonly dataDir: string;
  /** Default: the user's home folder. */
  readonly home?: string;
  /** Paths hidden beside the built-in deny list, and folders writable beside the workspace. */
  readonly extras?: () => { readonly denied: readonly string[]; readonly writable: readonly string[] };
  /** Network through a filtering proxy; without it a sandboxed command has no network at all. */
  readonly network?: SandboxNetworkDeps;
}

/** The line a sandboxed command's result carries for each host the proxy refused. */
export { blockedLine };

/** Why `auto` cannot be used here, as a person reads it. */
export function autoRefusal(availability: SandboxAvailability): string | null {
  return availability.available ? null : `Auto needs the sandbox, which is not available here: ${availability.reason} Use Ask instead.`;
}

/** The host's sandbox: whether it is available, and a wall around one command in a workspace. */
export class SandboxService {
  private readonly placeholders = new WorkspacePlaceholders();

  constructor(private readonly deps: SandboxServiceDeps) {}

  get availability(): SandboxAvailability {
    return this.deps.availability;
  }

  /** The mode a new session starts in: Auto where the sandbox is available, Ask otherwise. */
  defaultMode(): PermissionMode {
    return this.deps.availability.available ? 'auto' : 'ask';
  }

  /**
   * How a session's command runs in `mode`: Auto and Ask (an approved command) inside the sandbox;
   * Full, or Ask run once without it, outside. Auto without a sandbox is refused, never run outside.
   */
  confine(mode: PermissionMode, workspace: string, owner: CommandOwner, options: { unsandboxed?: boolean } = {}): Confinement {
    if (mode === 'full' || (mode === 'ask' && options.unsandboxed === true)) return { unconfined: true };
    if (!this.deps.availability.available) {
      return mode === 'auto' ? { refuse: autoRefusal(this.deps.availability) ?? '' } : { unconfined: true };
    }
    return { sandbox: this.prepare(workspace, owner) };
  }

  prepare(workspace: string, owner: CommandOwner): PreparedSandbox {
    const availability = this.deps.availability;
    if (!availability.available) throw new Error(availability.reason);
    const tmpDir = mkdtempSync(path.join(os.tmpdir(), 'cairn-sandbox-'));
    const release = this.placeholders.hold(existsSync(workspace) ? realpathSync(workspace) : workspace);
    const extras = this.deps.extras?.() ?? { denied: [], writable: [] };
    const layout = sandboxLayout({
      workspace,
      home: this.deps.home ?? os.homedir(),
      dataDir: this.deps.dataDir,
      tmpDir,
      extraDenied: extras.denied,
      extraWritable: extras.writable,
    });
    const network = this.deps.network;
    if (network === undefined) {
      return {
        tmpDir,
        wrap: (argv) => [availability.bwrap, ...bwrapArgs(layout, argv)],
        blockedHosts: () => [],
        dispose: () => {
          rmSync(tmpDir, { recursive: true, force: true });
          release();
        },
      };
    }
    // The proxy's socket lives in a folder only the host can enter; inside, it is bound at /run.
    const socketDir = mkdtempSync(path.join(os.tmpdir(), 'cairn-proxy-'));
    chmodSync(socketDir, 0o700);
    const socket = path.join(socketDir, 'proxy.sock');
    const blocked: string[] = [];
    const once = network.takeOnce?.(owner.sessionId) ?? [];
    const proxy = startNetworkProxy({
      socketPath: socket,
      allows: (host, port) => hostAllowed([...once, ...network.allowedHosts(owner.sessionId)], host, port),
      ownPorts: network.ownPorts ?? ownListeningPorts,
      // Reported once per host and command; the 403 goes out after, so the result sees it.
      onBlocked: (block) => {
        if (blocked.includes(block.host)) return;
        blocked.push(block.host);
        network.onBlocked?.({ ...owner, ...block });
      },
      ...(network.resolve === undefined ? {} : { resolve: network.resolve }),
    });
    return {
      tmpDir,
      wrap: (argv) => [availability.bwrap, ...bwrapArgs({ ...layout, proxy: { socket, socat: availability.socat } }, argv)],
      blockedHosts: () => [...blocked],
      dispose: () => {
        rmSync(tmpDir, { recursive: true, force: true });
        release();
        void proxy.close().finally(() => rmSync(socketDir, { recursive: true, force: true }));
      },
    };
  }
}
