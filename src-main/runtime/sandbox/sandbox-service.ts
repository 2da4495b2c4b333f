import { chmodSync, existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PermissionMode } from '../../../src-shared/model';
import { bwrapArgs } from './bwrap-args';
import type { SandboxAvailability } from './sandbox-availability';
import { DENIED_IN_HOME, sandboxLayout } from './sandbox-layout';
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
  /** Made by a walled agent while no run of its session was in flight: recorded, no card. */
  readonly noCard?: true;
}

/** The run of a session a walled agent's request is attributed to; `inFlight` false for the latest, ended one. */
export interface SessionRun {
  readonly turnId: string;
  readonly runId: string;
  readonly inFlight: boolean;
}

/** The network of sandboxed commands: what they may reach, and who hears of a refusal. */
export interface SandboxNetworkDeps {
  /** The session's and the global allowlist together, read per request (a change applies at once). */
  readonly allowedHosts: (sessionId: string) => readonly string[];
  /** Hosts allowed for the session's next command only ("Allow once"): taken by the command that starts next. */
  readonly takeOnce?: (sessionId: string) => readonly string[];
  /** For a walled agent: takes an "Allow once" of `host:port`, if there is one (its next connection there). */
  readonly takeOnceFor?: (sessionId: string, host: string, port: number) => boolean;
  /** For a walled agent's blocks: the session's run in flight, else its latest run; null when it has none. */
  readonly currentRun?: (sessionId: string) => SessionRun | null;
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

/** What an ACP agent's process gets inside the wall beside the workspace. */
export interface AgentWall {
  /** The agent's HOME (the deny list applies under it, and under the person's). */
  readonly home: string;
  /** Its own state: folders and files it writes (existing). */
  readonly writable: readonly string[];
  /** Its model endpoint: reachable through the proxy beside the session's and the global allowlist. */
  readonly hosts: readonly string[];
}

/** The loopback `host:port` patterns among an agent's hosts (its model server on this machine). */
function loopbackEndpoints(hosts: readonly string[]): { host: string; port: number }[] {
  return hosts.flatMap((pattern) => {
    const match = /^(127(?:\.\d{1,3}){3}|localhost):(\d{1,5})$/.exec(pattern);
    return match?.[1] === undefined || match[2] === undefined ? [] : [{ host: match[1], port: Number(match[2]) }];
  });
}

/** How a command of a session runs: in the sandbox, outside it, or not at all (with the reason). */
export type Confinement =
  { readonly sandbox: PreparedSandbox } | { readonly unconfined: true } | { readonly refuse: string };

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
  return availability.available
    ? null
    : `Auto needs the sandbox, which is not available here: ${availability.reason} Use Ask instead.`;
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
  confine(
    mode: PermissionMode,
    workspace: string,
    owner: CommandOwner,
    options: { unsandboxed?: boolean } = {},
  ): Confinement {
    if (mode === 'full' || (mode === 'ask' && options.unsandboxed === true)) return { unconfined: true };
    if (!this.deps.availability.available) {
      return mode === 'auto' ? { refuse: autoRefusal(this.deps.availability) ?? '' } : { unconfined: true };
    }
    return { sandbox: this.prepare(workspace, owner) };
  }

  /**
   * Where an ACP agent's process runs in `mode`: in Auto inside the wall as a whole (its own state
   * writable, network to its model endpoint and the session's and global allowlists), refused where Auto has no sandbox; in every other
   * mode outside (in Ask and Full it asks or is allowed as the mode says, and each terminal it opens
   * is confined by itself).
   */
  confineAgent(mode: PermissionMode, workspace: string, owner: CommandOwner, agent: AgentWall): Confinement {
    if (mode !== 'auto') return { unconfined: true };
    if (!this.deps.availability.available) return { refuse: autoRefusal(this.deps.availability) ?? '' };
    return { sandbox: this.prepare(workspace, owner, agent) };
  }

  /** A wall around one command (or one agent process, with `agent`) in `workspace`. */
  prepare(workspace: string, owner: CommandOwner, agent?: AgentWall): PreparedSandbox {
    const availability = this.deps.availability;
    if (!availability.available) throw new Error(availability.reason);
    const tmpDir = mkdtempSync(path.join(os.tmpdir(), 'cairn-sandbox-'));
    const release = this.placeholders.hold(existsSync(workspace) ? realpathSync(workspace) : workspace);
    const extras = this.deps.extras?.() ?? { denied: [], writable: [] };
    const hostHome = this.deps.home ?? os.homedir();
    const home = agent?.home ?? hostHome;
    const layout = sandboxLayout({
      workspace,
      home,
      dataDir: this.deps.dataDir,
      tmpDir,
      // An agent given a HOME of its own: the secrets of the person's home stay hidden too.
      extraDenied: [
        ...extras.denied,
        ...(home === hostHome ? [] : DENIED_IN_HOME.map((entry) => path.join(hostHome, entry))),
      ],
      extraWritable: [...extras.writable, ...(agent?.writable ?? [])],
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
    const reported = new Set<string>();
    const once = agent === undefined ? (network.takeOnce?.(owner.sessionId) ?? []) : [];
    // A command: the session's and the global lists, and an "Allow once" taken as it starts. An agent
    // (one proxy for its life): its model endpoint beside both lists, read per request, so a card
    // answered while it runs applies to its next request; an "Allow once" is its next connection there.
    const allows = (host: string, port: number) =>
      agent === undefined
        ? hostAllowed([...once, ...network.allowedHosts(owner.sessionId)], host, port)
        : hostAllowed([...agent.hosts, ...network.allowedHosts(owner.sessionId)], host, port) ||
          (network.takeOnceFor?.(owner.sessionId, host, port) ?? false);
    const proxy = startNetworkProxy({
      socketPath: socket,
      allows,
      ownPorts: network.ownPorts ?? ownListeningPorts,
      // Reported once per host and command; the 403 goes out after, so the result sees it.
      onBlocked: (block) => {
        if (agent === undefined) {
          if (blocked.includes(block.host)) return;
          blocked.push(block.host);
          network.onBlocked?.({ ...owner, ...block });
          return;
        }
        // An agent's own request: the proxy cannot tell which of its tool calls made it, so it goes to
        // the session's run in flight, once per host and turn (a denied host does not ask again in a loop).
        const run = network.currentRun?.(owner.sessionId) ?? null;
        const key = `${run?.turnId ?? ''} ${block.host}`;
        if (reported.has(key)) return;
        reported.add(key);
        network.onBlocked?.({
          ...owner,
          ...block,
          ...(run === null ? {} : { turnId: run.turnId, runId: run.runId }),
          ...(run?.inFlight === false ? { noCard: true as const } : {}),
        });
      },
      ...(network.resolve === undefined ? {} : { resolve: network.resolve }),
    });
    return {
      tmpDir,
      wrap: (argv) => [
        availability.bwrap,
        ...bwrapArgs(
          {
            ...layout,
            proxy: {
              socket,
              socat: availability.socat,
              ...(agent === undefined
                ? {}
                : { loopbackDirect: true, loopbackForwards: loopbackEndpoints(agent.hosts) }),
            },
          },
          argv,
        ),
      ],
      blockedHosts: () => [...blocked],
      dispose: () => {
        rmSync(tmpDir, { recursive: true, force: true });
        release();
        void proxy.close().finally(() => rmSync(socketDir, { recursive: true, force: true }));
      },
    };
  }
}
