import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Bridge } from '../src-shared/bridge';
import type { ChangeEvent } from '../src-shared/events';

type Listener = (event: unknown, ...args: unknown[]) => void;

/**
 * Stands in for Electron's contextBridge and ipcRenderer: records what was exposed, answers
 * `invoke` from a handler the test sets, and keeps `on` listeners so a test can emit to them.
 */
const stub = vi.hoisted(() => {
  const exposed: { key: string; api: unknown }[] = [];
  const listeners = new Map<string, Listener[]>();
  const state = { handler: null as null | ((channel: string, payload: unknown) => Promise<unknown>) };
  const ipcRenderer = {
    invoke: (channel: string, payload: unknown): Promise<unknown> =>
      state.handler === null
        ? Promise.reject(new Error(`No handler registered for '${channel}'`))
        : state.handler(channel, payload),
    on(channel: string, listener: Listener) {
      listeners.set(channel, [...(listeners.get(channel) ?? []), listener]);
      return ipcRenderer;
    },
    removeListener(channel: string, listener: Listener) {
      const remaining = (listeners.get(channel) ?? []).filter((candidate) => candidate !== listener);
      if (remaining.length === 0) listeners.delete(channel);
      else listeners.set(channel, remaining);
      return ipcRenderer;
    },
  };
  const emit = (channel: string, ...args: unknown[]) => {
    for (const listener of listeners.get(channel) ?? []) listener({ sender: 'the IpcRendererEvent' }, ...args);
  };
  const count = (channel: string) => listeners.get(channel)?.length ?? 0;
  return { exposed, listeners, state, ipcRenderer, emit, count };
});

vi.mock('electron', () => ({
  contextBridge: {
    exposeInMainWorld: (key: string, api: unknown) => stub.exposed.push({ key, api }),
  },
  ipcRenderer: stub.ipcRenderer,
}));

let bridge: Bridge;

beforeAll(async () => {
  await import('./preload');
  bridge = stub.exposed[0]?.api as Bridge;
});

beforeEach(() => {
  stub.state.handler = null;
  stub.listeners.clear();
});

const sampleEvent = (seq: number): ChangeEvent => ({
  seq,
  hostEpoch: 'epoch-1',
  kind: 'session.removed',
  sessionId: `s-${seq}`,
});

describe('the preload', () => {
  it('exposes exactly { invoke, subscribe } under window.cairn, once', () => {
    expect(stub.exposed.map((entry) => entry.key)).toEqual(['cairn']);
    expect(Object.keys(bridge).sort()).toEqual(['invoke', 'subscribe']);
    expect(typeof bridge.invoke).toBe('function');
    expect(typeof bridge.subscribe).toBe('function');
  });

  it('invoke sends { op, input } on cairn:invoke and resolves with the host outcome', async () => {
    const calls: { channel: string; payload: unknown }[] = [];
    stub.state.handler = (channel, payload) => {
      calls.push({ channel, payload });
      return Promise.resolve({ ok: true, result: { session: { id: 's-1' } } });
    };
    const outcome = await bridge.invoke('session.create', { title: 'Hello' });
    expect(calls).toEqual([{ channel: 'cairn:invoke', payload: { op: 'session.create', input: { title: 'Hello' } } }]);
    expect(outcome).toEqual({ ok: true, result: { session: { id: 's-1' } } });
  });

  it('passes error outcomes through unchanged', async () => {
    const refusal = { ok: false, error: { code: 'not_found', message: 'No such session.' } };
    stub.state.handler = () => Promise.resolve(refusal);
    expect(await bridge.invoke('session.get', { sessionId: 'nope' })).toEqual(refusal);
  });

  it('turns a broken channel into an internal_failure outcome instead of a rejection', async () => {
    const outcome = await bridge.invoke('host.info', {});
    expect(outcome).toMatchObject({ ok: false, error: { code: 'internal_failure' } });
    expect(JSON.stringify(outcome)).not.toContain('No handler registered');
  });

  it('subscribe hands the listener only the event, and unsubscribe removes exactly that listener', () => {
    const first: unknown[][] = [];
    const second: unknown[][] = [];
    const unsubscribeFirst = bridge.subscribe((...args: unknown[]) => first.push(args));
    bridge.subscribe((...args: unknown[]) => second.push(args));
    expect(stub.count('cairn:event')).toBe(2);

    stub.emit('cairn:event', sampleEvent(1));
    expect(first).toEqual([[sampleEvent(1)]]);
    expect(second).toEqual([[sampleEvent(1)]]);

    unsubscribeFirst();
    expect(stub.count('cairn:event')).toBe(1);
    stub.emit('cairn:event', sampleEvent(2));
    expect(first).toEqual([[sampleEvent(1)]]);
    expect(second).toEqual([[sampleEvent(1)], [sampleEvent(2)]]);
  });

  it('listens on no other channel', () => {
    bridge.subscribe(() => {});
    expect([...stub.listeners.keys()]).toEqual(['cairn:event']);
  });

  it('refuses a subscribe without a function', () => {
    expect(() => bridge.subscribe(null as unknown as (event: ChangeEvent) => void)).toThrow(TypeError);
    expect(stub.count('cairn:event')).toBe(0);
  });
});
