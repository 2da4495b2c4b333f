import type { Outcome } from '../../src-shared/errors';
import type { ChangeEvent } from '../../src-shared/events';
import { OFFLINE_DEMO_CONNECTION_ID } from '../../src-shared/connection-model';
import type { HostInfo } from '../../src-shared/model';
import type { OperationInput, OperationName, OperationResult } from '../../src-shared/operations';
import { PROTOCOL_VERSION } from '../../src-shared/protocol';
import type { AgentBackend } from '../runtime/contract/agent-backend';
import type { Clock, Ids, Logger } from '../runtime/ports/ports';
import { consoleLogger, randomIds, systemClock } from '../runtime/ports/ports';
import type { ProviderClient } from '../runtime/connections/provider-client';
import { aiSdkProviderClient } from '../runtime/connections/ai-sdk-provider-client';
import { createRuntime, type Runtime, type RuntimeDeps } from '../runtime/runtime';
import { detectSandbox, type SandboxSetting } from '../runtime/sandbox/sandbox-availability';
import { createKeyFileCipher, openSecretVault, type SecretCipher } from '../storage/secret-vault';
import { describeDatabaseError } from '../storage/database';
import { DataDirError } from '../storage/data-dir-errors';
import { openStores, type SalvageMode, type Stores } from '../storage/stores';
import { openMemoryStore } from '../storage/memory-store';
import { createDeviceRegistry, type DeviceRegistry } from './devices/device-registry';
import { createDispatcher } from './dispatcher';
import type { CallContext, DesktopCapabilities } from './handler';
import { handlers } from './handlers';
import { createHostVitalsMeter } from './vitals/host-vitals';
import { createStorageSpace } from './vitals/storage-space';

export const CAIRN_VERSION = '0.1.0';

/** Local model servers offered on first run when they answer. */
export const DEFAULT_DISCOVERY_PROBES: RuntimeDeps['discoveryProbes'] = [
  { providerType: 'ollama', name: 'Ollama', baseUrl: 'http://127.0.0.1:11434' },
  { providerType: 'openai_compatible', name: 'LM Studio', baseUrl: 'http://127.0.0.1:1234/v1' },
];

export interface HostOptions {
  readonly dataDir: string;
  readonly clock?: Clock;
  readonly ids?: Ids;
  readonly logger?: Logger;
  /** Backends for particular connection ids; the Offline demo's scripted agent is the default there. */
  readonly backends?: ReadonlyMap<string, AgentBackend>;
  /** How API keys are sealed: Electron's safeStorage on the desktop; a local key file by default. */
  readonly secretCipher?: SecretCipher;
  /** The provider layer (the AI SDK over real providers by default). */
  readonly providers?: ProviderClient;
  readonly discoveryProbes?: RuntimeDeps['discoveryProbes'];
  /** Backoff base for transient provider errors. */
  readonly retryBaseMs?: number;
  /** OS integration the desktop app provides (folder picker); absent in the headless host. */
  readonly desktop?: DesktopCapabilities;
  /** Path of a better-sqlite3 binary for Electron's ABI (desktop only). */
  readonly nativeBinding?: string;
  /** How long deltas gather before a write; tests and benches may change it. */
  readonly flushMs?: number;
  /**
   * When the database is damaged, move it aside (kept) and start from a fresh one holding every
   * session and transcript that can still be read. The person chooses this (serve --salvage, or
   * the desktop app's dialog); without it a damaged database stops the start with a DataDirError.
   */
  readonly salvage?: boolean;
  /** Fault injection for tests: the runtime works on what this returns instead of the opened stores. */
  readonly wrapStores?: (stores: Stores) => Stores;
  /** Codex sessions: provider retries and await bounds (tests shorten them). */
  readonly codex?: RuntimeDeps['codex'];
  readonly acp?: RuntimeDeps['acp'];
  /** Automations: the scheduler's own clock (tests drive it by hand) and a crash-injection hook. */
  readonly automations?: RuntimeDeps['automations'];
  /** Transcript items a branch copies per transaction (tests shorten it to see a copy cut mid-way). */
  readonly branchCopyChunk?: number;
  /** MCP servers: bounds on connecting and on one call (tests shorten them). */
  readonly mcpBounds?: RuntimeDeps['mcpBounds'];
  /** Whether a session's model writes its title after the first exchange (default true; test hosts turn it off). */
  readonly modelTitles?: boolean;
  /** File checkpoints: size cap and a crash-injection hook (tests). */
  readonly checkpoints?: RuntimeDeps['checkpoints'];
  /** Worktrees: the environment git runs in (tests give a PATH without git). */
  readonly worktrees?: RuntimeDeps['worktrees'];
  /** Variables whose names look like secrets that agents' commands still get, by name (`--pass-env`). */
  readonly commandEnvPassThrough?: readonly string[];
  /**
   * The sandbox for agents' commands: detected at start (default), or off. Test hosts say which, so
   * no test depends on what the machine has installed.
   */
  readonly sandbox?: SandboxSetting;
  /** The `cairn acp` launcher of this checkout, for Settings → Editors (host.info); null or absent when none. */
  readonly acpLauncher?: string | null;
}

export interface Host {
  readonly info: HostInfo;
  invoke<N extends OperationName>(
    op: N,
    input: OperationInput<N>,
    ctx?: CallContext,
  ): Promise<Outcome<OperationResult<N>>>;
  /** For transports: an operation named at run time, input not yet checked. */
  dispatch(op: string, input: unknown, ctx: CallContext): Promise<Outcome<unknown>>;
  subscribe(listener: (event: ChangeEvent) => void): () => void;
  /** Paired devices and pairing: the transports admit devices through it. */
  readonly devices: DeviceRegistry;
  readonly isDraining: boolean;
  /**
   * Shutdown begins: from now on nothing new starts (no turn, follow-up, goal turn or delegation)
   * and commands answer `host_draining`; queries still answer. `close()` does this first too.
   */
  drain(): void;
  /** Stops admitting, ends live runs as interrupted, closes the database and releases the lock. */
  close(): Promise<void>;
}

const DIRECT: CallContext = { transport: 'direct', connectionId: 'direct' };
const SHUTDOWN_GRACE_MS = 2000;

/**
 * The composition root: opens the record, recovers it, and wires runtime, handlers and dispatcher.
 * With `salvage`, a database found damaged (by the check at open, or while recovering) is moved
 * aside and the host starts from what could be read.
 */
export async function createHost(options: HostOptions): Promise<Host> {
  if (options.salvage !== true) return startHost(options, 'never');
  let salvaged = false;
  try {
    return await startHost(options, 'when_damaged', () => (salvaged = true));
  } catch (error) {
    // Damage the check could not see, found while recovering: salvage now, once.
    if (salvaged || !(error instanceof DataDirError) || error.problem !== 'damaged_database') throw error;
    return startHost(options, 'always');
  }
}

async function startHost(options: HostOptions, salvage: SalvageMode, onSalvaged: () => void = () => {}): Promise<Host> {
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? randomIds();
  const logger = options.logger ?? consoleLogger();
  const backends = new Map(options.backends ?? []);
  const stores = openStores(options.dataDir, {
    ...(options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding }),
    salvage,
    onSalvaged: (report) => {
      onSalvaged();
      logger.warn('Moved a damaged database aside and started from what could be read', {
        damagedFile: report.damagedFile,
        copied: report.copied,
        partial: report.partial,
      });
    },
  });
  const hostEpoch = ids.next('epoch');
  const memory = openMemoryStore(
    options.dataDir,
    options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding },
  );
  let runtime: Runtime;
  try {
    const vault = openSecretVault(options.dataDir, options.secretCipher ?? createKeyFileCipher(options.dataDir));
    runtime = createRuntime({
      stores: options.wrapStores?.(stores) ?? stores,
      vault,
      clock,
      ids,
      logger,
      hostEpoch,
      backends,
      providers: options.providers ?? aiSdkProviderClient,
      discoveryProbes: options.discoveryProbes ?? DEFAULT_DISCOVERY_PROBES,
      dataDir: options.dataDir,
      cairnVersion: CAIRN_VERSION,
      memory,
      ...(options.branchCopyChunk === undefined ? {} : { branchCopyChunk: options.branchCopyChunk }),
      ...(options.codex === undefined ? {} : { codex: options.codex }),
      ...(options.acp === undefined ? {} : { acp: options.acp }),
      ...(options.automations === undefined ? {} : { automations: options.automations }),
      ...(options.mcpBounds === undefined ? {} : { mcpBounds: options.mcpBounds }),
      ...(options.modelTitles === undefined ? {} : { modelTitles: options.modelTitles }),
      ...(options.checkpoints === undefined ? {} : { checkpoints: options.checkpoints }),
      ...(options.worktrees === undefined ? {} : { worktrees: options.worktrees }),
      ...(options.commandEnvPassThrough === undefined ? {} : { commandEnvPassThrough: options.commandEnvPassThrough }),
      sandbox: detectSandbox(options.sandbox ?? 'detect'),
      ...(options.flushMs === undefined ? {} : { flushMs: options.flushMs }),
      ...(options.retryBaseMs === undefined ? {} : { retryBaseMs: options.retryBaseMs }),
    });
    runtime.recover();
  } catch (error) {
    if ('store' in memory) memory.store.close();
    stores.close();
    // A damaged page found while recovering is the same problem as one found at open: say so.
    throw describeDatabaseError(error, options.dataDir);
  }
  const devices = createDeviceRegistry({
    dataDir: options.dataDir,
    now: () => clock.now(),
    publish: () => runtime.bus.publish({ kind: 'devices.changed' }),
    logger,
  });
  const info: HostInfo = {
    name: 'Cairn',
    version: CAIRN_VERSION,
    protocol: PROTOCOL_VERSION,
    hostEpoch,
    dataDir: options.dataDir,
    backends: [OFFLINE_DEMO_CONNECTION_ID, ...[...backends.keys()].filter((id) => id !== OFFLINE_DEMO_CONNECTION_ID)],
    hostName: devices.hostName().name,
    sandbox: runtime.sandbox.availability.available
      ? { available: true, reason: null }
      : { available: false, reason: runtime.sandbox.availability.reason },
    acpLauncher: options.acpLauncher ?? null,
  };
  let closing: Promise<void> | null = null;
  const vitals = createHostVitalsMeter();
  const storage = createStorageSpace({
    dataDir: options.dataDir,
    stores,
    admission: runtime.admission,
    bus: runtime.bus,
    now: () => clock.now(),
  });
  const dispatch = createDispatcher({
    handlers,
    // The name can change while the host runs (Settings → Devices); the rest is fixed at start.
    deps: {
      runtime,
      info: () => ({ ...info, hostName: devices.hostName().name }),
      desktop: options.desktop ?? null,
      devices,
      vitals,
      storage,
    },
    logger,
    isDraining: () => !runtime.admission.isOpen,
    knownFault: (error) => runtime.storageDamage.report(error),
  });

  return {
    info,
    invoke<N extends OperationName>(op: N, input: OperationInput<N>, ctx: CallContext = DIRECT) {
      // The dispatcher decoded the input against this operation's schema and ran its handler.
      return dispatch(op, input, ctx) as Promise<Outcome<OperationResult<N>>>;
    },
    dispatch,
    subscribe: (listener) => runtime.bus.subscribe(listener),
    devices,
    get isDraining() {
      return !runtime.admission.isOpen;
    },
    drain() {
      runtime.admission.close();
    },
    close() {
      closing ??= (async () => {
        await runtime.shutdown(SHUTDOWN_GRACE_MS);
        // A compaction in progress finishes on its own connection before the database closes.
        await storage.idle();
        vitals.close();
        runtime.memory.close();
        stores.close();
      })();
      return closing;
    },
  };
}
