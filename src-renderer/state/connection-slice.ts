import type { ConnectionState } from '../bridge/host-link';
import type { SliceCreator } from './app-state';

export interface ConnectionSlice {
  readonly connection: ConnectionState;
  setConnection(state: ConnectionState): void;
}

export const createConnectionSlice: SliceCreator<ConnectionSlice> = (set, _get, deps) => ({
  connection: deps.link.connection(),
  setConnection: (connection) => set({ connection }),
});
