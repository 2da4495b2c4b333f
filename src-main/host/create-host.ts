import type { Outcome } from '../../src-shared/errors';
import type { ChangeEvent } from '../../src-shared/events';
import type { HostInfo } from '../../src-shared/model';
import type { OperationInput, OperationName, OperationResult } from '../../src-shared/operations';
import { PROTOCOL_VERSION } from '../../src-shared/protocol';
import type { AgentBackend } from '../runtime/backends/agent-backend';
import { createScriptedBackend } from '../runtime/backends/scripted-backend';
import type { Clock, Ids, Logger } from '../runtime/ports';
import { consoleLogger, randomIds, systemClock } from '../runtime/ports';
import { createRuntime, type Runtime } from '../runtime/runtime';
import { openStores } from '../storage/stores';
import { createDispatcher } from './dispatcher';
import type { CallContext } from './handler';
import { handlers } from './handlers';

export const CAIRN_VERSION = '0.1.0';

/** The built-in connection that runs the scripted agent: always there, no key needed. */
export const OFFLINE_DEMO_CONNECTION_ID = 'offline-demo';

export interface HostOptions {
  readonly dataDir: string;
  readonly clock?: Clock;
  readonly ids?: Ids;
  readonly logger?: Logger;
  /** Backends by connection id; the offline demo (scripted) is added when absent. */
  readonly backends?: ReadonlyMap<string, AgentBackend>;
  /** Path of a better-sqlite3 binary for Electron's ABI (desktop only). */
  readonly nativeBinding?: string;
  /** How long deltas gather before a write; tests and benches may change it. */
  readonly flushMs?: number;
}

export interface Host {
  readonly info: HostInfo;
  invoke<N extends OperationName>(op: N, input: OperationInput<N>, ctx?: CallContext): Promise<Outcome<OperationResult<N>>>;
  /** For transports: an operation named at run time, input not yet checked. */
  dispatch(op: string, input: unknown, ctx: CallContext): Promise<Outcome<unknown>>;
  subscribe(listener: (event: ChangeEvent) => void): () => void;
  readonly isDraining: boolean;
  /** Stops admitting, ends live runs as interrupted, closes the database and releases the lock. */
  close(): Promise<void>;
}

const DIRECT: CallContext = { transport: 'direct', connectionId: 'direct' };
const SHUTDOWN_GRACE_MS = 2000;

/** The composition root: opens the record, recovers it, and wires runtime, handlers and dispatcher. */
export async function createHost(options: HostOptions): Promise<Host> {
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? randomIds();
  const logger = options.logger ?? consoleLogger();
  const backends = new Map(options.backends ?? []);
  if (!backends.has(OFFLINE_DEMO_CONNECTION_ID)) backends.set(OFFLINE_DEMO_CONNECTION_ID, createScriptedBackend());
  const stores = openStores(options.dataDir, options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding });
  const hostEpoch = ids.next('epoch');
  let runtime: Runtime;
  try {
    runtime = createRuntime({
      stores,
      clock,
      ids,
      logger,
      hostEpoch,
      backends,
      defaultConnectionId: OFFLINE_DEMO_CONNECTION_ID,
      ...(options.flushMs === undefined ? {} : { flushMs: options.flushMs }),
    });
    runtime.recover();
  } catch (error) {
    stores.close();
    throw error;
  }
  const info: HostInfo = {
    name: 'Cairn',
    version: CAIRN_VERSION,
    protocol: PROTOCOL_VERSION,
    hostEpoch,
    dataDir: options.dataDir,
    backends: [...backends.keys()],
  };
  let draining = false;
  let closing: Promise<void> | null = null;
  const dispatch = createDispatcher({ handlers, deps: { runtime, info: () => info }, logger, isDraining: () => draining });

  return {
    info,
    invoke<N extends OperationName>(op: N, input: OperationInput<N>, ctx: CallContext = DIRECT) {
      // The dispatcher decoded the input against this operation's schema and ran its handler.
      return dispatch(op, input, ctx) as Promise<Outcome<OperationResult<N>>>;
    },
    dispatch,
    subscribe: (listener) => runtime.bus.subscribe(listener),
    get isDraining() {
      return draining;
    },
    close() {
      closing ??= (async () => {
        draining = true;
        await runtime.shutdown(SHUTDOWN_GRACE_MS);
        stores.close();
      })();
      return closing;
    },
  };
}
