import type { Outcome } from './errors';
import type { ChangeEvent } from './events';
import type { OperationInput, OperationName, OperationResult } from './operations';

/** What the renderer talks to: `window.cairn` in Electron, a WebSocket client in a browser. */
export interface Bridge {
  invoke<N extends OperationName>(op: N, input: OperationInput<N>): Promise<Outcome<OperationResult<N>>>;
  /** Returns a function that unsubscribes. */
  subscribe(listener: (event: ChangeEvent) => void): () => void;
}

/** The two Electron IPC channels the preload and the main process share; nothing else crosses. */
export const IPC_CHANNELS = {
  /** Requests `{ op, input }` → an Outcome. */
  invoke: 'cairn:invoke',
  /** Change events pushed to the window. */
  event: 'cairn:event',
} as const;
