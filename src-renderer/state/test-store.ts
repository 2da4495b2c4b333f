import { memoryLocation } from '../platform/app-location';
import { memoryDraftStorage, type DraftStorage } from '../platform/draft-storage';
import { manualFrameScheduler } from '../platform/frame-scheduler';
import type { DesktopNote, NotificationPermissionPort } from '../platform/notifier';
import { connectStoreToHost } from './connect-store';
import { FakeHostLink } from './fake-host-link';
import { connection, item, session, turn } from './reducers/record-fixtures';
import { createAppStore } from './store';

export const OFFLINE_DEMO = connection({
  connectionId: 'offline-demo',
  name: 'Offline demo',
  providerType: 'scripted',
  builtIn: true,
  enabledModelIds: ['scripted'],
  models: [{ modelId: 'scripted', label: 'Scripted agent' }],
});

/** A store wired to a fake host that answers the first load: one session, the Offline demo, nothing pending. */
export function setupStore(
  options: {
    openSession?: string;
    draftStorage?: DraftStorage;
    notificationPermission?: NotificationPermissionPort;
  } = {},
) {
  const link = new FakeHostLink();
  const notes: DesktopNote[] = [];
  const frames = manualFrameScheduler();
  const location = memoryLocation(options.openSession ?? null);
  let ids = 0;
  const draftStorage = options.draftStorage ?? memoryDraftStorage();
  const store = createAppStore({
    draftStorage,
    link,
    frames,
    location,
    newId: () => `id-${++ids}`,
    timers: {
      setTimeout: (callback, ms) => setTimeout(callback, ms),
      clearTimeout: (handle) => clearTimeout(handle as number),
    },
    notify: (note) => notes.push(note),
    // Notifications allowed by the browser (and on unless the person turned them off): notes are collected.
    notificationPermission: options.notificationPermission ?? {
      current: () => 'granted',
      request: () => Promise.resolve('granted'),
    },
  });
  link.answer('session.list', () => ({
    ok: true,
    result: { sessions: [session({ sessionId: 's1', title: 'First' })], nextCursor: null },
  }));
  link.answer('session.get', ({ sessionId }) => ({
    ok: true,
    result: {
      session: session({ sessionId, title: 'First' }),
      transcript: {
        items: [
          item({ itemId: 'u1', position: 0, kind: 'user_message', text: 'hi' }),
          item({ itemId: 'a1', position: 1, text: 'Hel', state: 'streaming' }),
        ],
        turns: [turn({ turnId: 't1', status: 'running' })],
        nextBefore: null,
      },
      activeTurn: turn({ turnId: 't1', status: 'running' }),
      queue: [],
      runProgress: null,
    },
  }));
  link.answer('connection.list', () => ({
    ok: true,
    result: {
      connections: [OFFLINE_DEMO],
      defaultTarget: { connectionId: 'offline-demo', modelId: 'scripted' },
      catalogRevision: 1,
    },
  }));
  link.answer('interaction.list', () => ({ ok: true, result: { interactions: [] } }));
  link.answer('goal.get', () => ({ ok: true, result: { goal: null } }));
  link.answer('usage.summary', () => ({
    ok: true,
    result: {
      totals: { calls: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0, costUsd: null },
      groups: [],
    },
  }));
  const disconnect = connectStoreToHost(store, link);
  return { link, frames, location, store, disconnect, notes, draftStorage };
}
