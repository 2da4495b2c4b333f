import { describe, expect, it } from 'vitest';
import type { ConnectionState } from '../bridge/host-link';
import { ChunkSource } from './chunk-source';
import { retryingImport } from './retrying-import';

const state = (status: ConnectionState['status']): ConnectionState => ({ status, hostEpoch: null, generation: 1, problem: null });

function fakeLink(initial: ConnectionState) {
  let current = initial;
  const listeners = new Set<(next: ConnectionState) => void>();
  return {
    connection: () => current,
    onConnectionChange: (listener: (next: ConnectionState) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    move(next: ConnectionState) {
      current = next;
      for (const listener of listeners) listener(next);
    },
  };
}

describe('ChunkSource', () => {
  it('holds a lazy load while the host is away and loads it once the line is back, fetching once', async () => {
    const link = fakeLink(state('open'));
    const source = new ChunkSource();
    source.follow(link);
    link.move(state('reconnecting'));
    let fetches = 0;
    const loading = retryingImport(
      async () => {
        fetches += 1;
        return { view: 'Settings' };
      },
      [],
      async () => undefined,
      source,
    );
    // Give the load every chance to start: it must not while the host is away.
    for (let turn = 0; turn < 5; turn += 1) await Promise.resolve();
    expect(fetches).toBe(0);
    link.move(state('open'));
    await expect(loading).resolves.toEqual({ view: 'Settings' });
    expect(fetches).toBe(1);
  });

  it('is open from the start, on a first connection and when the host refused the tab (it is up)', async () => {
    for (const status of ['connecting', 'open', 'failed'] as const) {
      const source = new ChunkSource();
      source.follow(fakeLink({ ...state(status), generation: 0 }));
      await expect(Promise.race([source.whenReachable().then(() => 'open'), Promise.resolve().then(() => 'held')])).resolves.toBe('open');
    }
  });

  it('stops following when told', async () => {
    const link = fakeLink(state('open'));
    const source = new ChunkSource();
    const stop = source.follow(link);
    stop();
    link.move(state('reconnecting'));
    await expect(source.whenReachable()).resolves.toBeUndefined();
  });
});
