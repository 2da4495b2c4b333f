import { EventSequencer } from '../bridge/event-sequencer';
import type { HostLink } from '../bridge/host-link';
import type { AppStore } from './app-state';

/**
 * Wires a host link to the store: events go in (in seq order; a gap or a new host epoch triggers a
 * resync), connection changes go in (a reconnect triggers a resync), and the first load starts.
 * Returns a function that disconnects.
 */
export function connectStoreToHost(store: AppStore, link: HostLink): () => void {
  const sequencer = new EventSequencer();
  let generation = link.connection().generation;
  store.getState().setConnection(link.connection());

  const stopEvents = link.subscribe((event) => {
    const verdict = sequencer.check(event);
    if (verdict === 'replayed') return;
    store.getState().receiveEvent(event);
    if (verdict === 'gap' || verdict === 'new_epoch') void store.getState().resync();
  });

  const stopConnection = link.onConnectionChange((state) => {
    store.getState().setConnection(state);
    if (state.status !== 'open' || state.generation === generation) return;
    const reconnected = generation > 0;
    generation = state.generation;
    sequencer.reset();
    if (reconnected) void store.getState().resync();
  });

  store.getState().initialize();
  return () => {
    stopEvents();
    stopConnection();
  };
}
