import type { ConnectionState, HostLink } from '../bridge/host-link';
import type { SliceCreator } from './app-state';

export interface ConnectionSlice {
  readonly connection: ConnectionState;
  /** The link itself, for lazily loaded pages with no slice of their own (Settings → Devices). */
  readonly hostLink: HostLink;
  setConnection(state: ConnectionState): void;
}

export const createConnectionSlice: SliceCreator<ConnectionSlice> = (set, _get, deps) => ({
  connection: deps.link.connection(),
  hostLink: deps.link,
  // Back in touch: the notices about what could not reach the host no longer hold.
  setConnection: (connection) =>
    set(connection.status === 'open' ? { connection, composerNotices: {} } : { connection }),
});
