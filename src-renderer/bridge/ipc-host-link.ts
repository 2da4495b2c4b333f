import type { Bridge } from '../../src-shared/bridge';
import type { HostLink } from './host-link';
import { OPEN_CONNECTION } from './host-link';

/** Whether a value looks like the preload's `window.cairn` (the Bridge of src-shared). */
export function isBridge(value: unknown): value is Bridge {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as { invoke?: unknown; subscribe?: unknown };
  return typeof candidate.invoke === 'function' && typeof candidate.subscribe === 'function';
}

/** The Electron preload's bridge: its line to the host never drops while the window lives. */
export function ipcHostLink(bridge: Bridge): HostLink {
  return {
    invoke: (op, input) => bridge.invoke(op, input),
    subscribe: (listener) => bridge.subscribe(listener),
    connection: () => OPEN_CONNECTION,
    onConnectionChange: () => () => {},
    close: () => {},
  };
}
