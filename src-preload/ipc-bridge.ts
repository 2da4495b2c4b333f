import type { IpcRenderer, IpcRendererEvent } from 'electron';
import { IPC_CHANNELS, type Bridge } from '../src-shared/bridge';
import type { ChangeEvent } from '../src-shared/events';

/** The Bridge over Electron IPC, on the channels src-shared defines for both sides. */

const INVOKE_CHANNEL = IPC_CHANNELS.invoke;
const EVENT_CHANNEL = IPC_CHANNELS.event;

export type BridgeIpc = Pick<IpcRenderer, 'invoke' | 'on' | 'removeListener'>;

export function createBridge(ipc: BridgeIpc): Bridge {
  return {
    invoke(op, input) {
      // The host validates op and input and answers with an Outcome; only a broken channel (or an
      // input that cannot be cloned) rejects, and that becomes an Outcome too.
      return Promise.resolve()
        .then(() => ipc.invoke(INVOKE_CHANNEL, { op, input }))
        .catch(() => ({
          ok: false as const,
          error: { code: 'internal_failure' as const, message: 'Cairn could not reach its host process.' },
        }));
    },
    subscribe(listener) {
      if (typeof listener !== 'function') throw new TypeError('subscribe(listener) needs a function');
      const forward = (_event: IpcRendererEvent, payload: ChangeEvent) => listener(payload);
      ipc.on(EVENT_CHANNEL, forward);
      return () => {
        ipc.removeListener(EVENT_CHANNEL, forward);
      };
    },
  };
}
