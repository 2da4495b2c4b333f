import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { Bridge } from '../src-shared/bridge';
import type { ChangeEvent } from '../src-shared/events';

/**
 * The sandboxed preload: exposes `window.cairn`, the Bridge, and nothing else. It must bundle into
 * one CommonJS file that requires only `electron`, so it imports nothing but types from src-shared.
 * The channel names match src-main/host/transports/ipc-transport.ts (checked on the built file).
 */

const INVOKE_CHANNEL = 'cairn:invoke';
const EVENT_CHANNEL = 'cairn:event';

export type BridgeIpc = Pick<typeof ipcRenderer, 'invoke' | 'on' | 'removeListener'>;

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

contextBridge.exposeInMainWorld('cairn', createBridge(ipcRenderer));
