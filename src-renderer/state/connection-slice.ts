import type { ConnectionState } from '../bridge/host-link';
import type { SliceCreator } from './app-state';

export interface ConnectionSlice {
  readonly connection: ConnectionState;
  setConnection(state: ConnectionState): void;
}

export const createConnectionSlice: SliceCreator<ConnectionSlice> = (set, _get, deps) => ({
  connection: deps.link.connection(),
  // Back in touch: the notices about what could not reach the host no longer hold.
  setConnection: (connection) => set(connection.status === 'open' ? { connection, composerNotices: {} } : { connection }),
});
