import { describe, expect, it } from 'vitest';
import type { ConnectionState } from '../bridge/host-link';
import { ChunkSource, type HostedPage } from './chunk-source';
import { retryingImport } from './retrying-import';

const state = (status: ConnectionState['status']): ConnectionState => ({
  status,
  hostEpoch: null,
  generation: 1,
  problem: null,
});

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

interface FakePage extends HostedPage {
  asked: number;
  reloads: number;
  recovery: number | null;
  dialogOpen: boolean;
}

function fakePage(answers: boolean[], lastRecovery: number | null = null): FakePage {
  const page: FakePage = {
    asked: 0,
    reloads: 0,
    recovery: lastRecovery,
    dialogOpen: false,
    answers: async () => answers[page.asked++] ?? true,
    reload: () => void (page.reloads += 1),
    busy: () => page.dialogOpen,
    lastRecovery: () => page.recovery,
    markRecovery: (at: number) => void (page.recovery = at),
    now: () => 1_000_000,
    sleep: async () => undefined,
  };
  return page;
}

const failedFetch = async (): Promise<never> => {
  throw new TypeError('Failed to fetch dynamically imported module');
};

/** Lets every pending promise callback run (the loads here never wait on a timer). */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 50; turn += 1) await Promise.resolve();
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
      await expect(
        Promise.race([source.whenReachable().then(() => 'open'), Promise.resolve().then(() => 'held')]),
      ).resolves.toBe('open');
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

describe('a lazy load that failed in a browser tab', () => {
  it('is not fetched again (the failure is kept): once the line is back and the host answers, the page reloads, and the load never settles', async () => {
    const link = fakeLink(state('open'));
    const page = fakePage([false, false, true]);
    const source = new ChunkSource();
    source.follow(link, page);
    let fetches = 0;
    let settled = false;
    const loading = retryingImport(
      () => {
        fetches += 1;
        // The host went away as the chunk was fetched; the line notices just after.
        link.move(state('reconnecting'));
        return failedFetch();
      },
      [1, 1, 1],
      async () => undefined,
      source,
    );
    void loading.finally(() => (settled = true));
    await settle();
    expect(page.asked).toBe(0); // held while the line is down
    link.move(state('open'));
    await settle();
    expect(page.asked).toBe(3); // asked until the host answered
    expect(page.reloads).toBe(1);
    expect(page.recovery).toBe(1_000_000);
    expect(fetches).toBe(1);
    expect(settled).toBe(false);
  });

  it('does not reload while a dialog is open (it would close under the person), and does once it is closed', async () => {
    const page = fakePage([true]);
    page.dialogOpen = true;
    const source = new ChunkSource();
    source.follow(fakeLink(state('open')), page);
    void retryingImport(failedFetch, [1], async () => undefined, source);
    await settle();
    expect(page.reloads).toBe(0);
    page.dialogOpen = false;
    await settle();
    expect(page.reloads).toBe(1);
    expect(page.asked).toBe(1);
  });

  it('does not reload while another view asked for meanwhile is loading (it would never open), nor while it shows as a dialog', async () => {
    const link = fakeLink(state('open'));
    const page = fakePage([true, true]);
    const source = new ChunkSource();
    source.follow(link, page);
    // The welcome's chunk fails as the host goes away; then the person opens Settings, held while the line is down.
    void retryingImport(
      () => {
        link.move(state('reconnecting'));
        return failedFetch();
      },
      [1],
      async () => undefined,
      source,
    );
    await settle();
    let finishSettings: (module: { view: string }) => void = () => undefined;
    const settings = retryingImport(
      () => new Promise<{ view: string }>((resolve) => (finishSettings = resolve)),
      [1],
      async () => undefined,
      source,
    );
    link.move(state('open'));
    await settle();
    // The host answers, but Settings is being fetched: no reload yet.
    expect(page.reloads).toBe(0);
    finishSettings({ view: 'Settings' });
    page.dialogOpen = true;
    await expect(settings).resolves.toEqual({ view: 'Settings' });
    await settle();
    expect(page.reloads).toBe(0);
    page.dialogOpen = false;
    await settle();
    expect(page.reloads).toBe(1);
  });

  it('reloads the page once when several loads fail together', async () => {
    const page = fakePage([true]);
    const source = new ChunkSource();
    source.follow(fakeLink(state('open')), page);
    void retryingImport(failedFetch, [1], async () => undefined, source);
    void retryingImport(failedFetch, [1], async () => undefined, source);
    await settle();
    expect(page.reloads).toBe(1);
  });

  it('shows the error screen rather than reload again within a minute of the last recovery', async () => {
    const page = fakePage([true], 1_000_000 - 30_000);
    const source = new ChunkSource();
    source.follow(fakeLink(state('open')), page);
    await expect(retryingImport(failedFetch, [1, 1], async () => undefined, source)).rejects.toThrow(
      'Failed to fetch dynamically imported module',
    );
    expect(page.reloads).toBe(0);
  });

  it('in the desktop app (no host to follow) is simply tried again', async () => {
    const source = new ChunkSource();
    let calls = 0;
    const module = await retryingImport(
      async () => {
        calls += 1;
        if (calls === 1) throw new TypeError('Failed to fetch dynamically imported module');
        return { view: 'Settings' };
      },
      [1],
      async () => undefined,
      source,
    );
    expect(module).toEqual({ view: 'Settings' });
  });
});
