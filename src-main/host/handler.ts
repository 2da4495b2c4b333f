import type { Outcome } from '../../src-shared/errors';
import type { HostInfo } from '../../src-shared/model';
import type { OperationErrorCode, OperationName, OperationResult, ParsedInput } from '../../src-shared/operations';
import type { DeviceIdentity } from '../../src-shared/device-model';
import type { Runtime } from '../runtime/runtime';
import type { DeviceRegistry } from './devices/device-registry';
import type { HostVitalsMeter } from './vitals/host-vitals';
import type { StorageSpace } from './vitals/storage-space';

/** What handlers may use: the runtime's services and the host's identity. */
export interface HandlerDeps {
  readonly runtime: Runtime;
  readonly info: () => HostInfo;
  /** What the desktop app adds (OS dialogs); null in the headless host. */
  readonly desktop: DesktopCapabilities | null;
  /** Paired devices, pairing codes and the listener they reach. */
  readonly devices: DeviceRegistry;
  /** Memory and event-loop delay, read by `host.vitals`. */
  readonly vitals: HostVitalsMeter;
  /** Settings → Storage: sizes and Reclaim space. */
  readonly storage: StorageSpace;
}

export interface DesktopCapabilities {
  pickFolder(): Promise<string | null>;
  /** Saves `content` where the person picks in the OS save dialog, offering `fileName`; null when cancelled. */
  saveFile(fileName: string, content: string): Promise<string | null>;
}

/** Who is calling: the transport and its connection, and the paired device when it is one (else the desktop). */
export interface CallContext {
  readonly transport: 'direct' | 'websocket' | 'ipc' | 'local-socket';
  readonly connectionId: string;
  readonly device?: DeviceIdentity;
}

/**
 * An operation's handler. Its failures are typed by the codes the operation declares (and those the
 * dispatcher may give any operation, `BoundaryError<N>`), so returning an undeclared code is a type error.
 */
export type Handler<N extends OperationName> = (
  deps: HandlerDeps,
  input: ParsedInput<N>,
  ctx: CallContext,
) => HandlerOutcome<N> | Promise<HandlerOutcome<N>>;

export type HandlerOutcome<N extends OperationName> = Outcome<OperationResult<N>, OperationErrorCode<N>>;

export type HandlerTable<Names extends OperationName = OperationName> = { readonly [N in Names]: Handler<N> };
