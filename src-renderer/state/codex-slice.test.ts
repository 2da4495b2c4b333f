import { describe, expect, it } from 'vitest';
import type { ChangeEvent } from '../../src-shared/events';
import { reduceCodexQuarantines, reduceCodexThreadProblems } from './codex-slice';
import { turn } from './reducers/record-fixtures';
import { setupStore } from './test-store';

const quarantined = (seq: number, sessionId: string, pid: number): ChangeEvent => ({
  seq,
  hostEpoch: 'e',
  kind: 'codex.quarantine.changed',
  sessionId,
  quarantine: { sessionId, pid, message: `pid ${pid} could not be confirmed stopped` },
});
const released = (seq: number, sessionId: string): ChangeEvent => ({
  seq,
  hostEpoch: 'e',
  kind: 'codex.quarantine.changed',
  sessionId,
  quarantine: null,
});

describe('Codex quarantines', () => {
  it('keeps the newest word on each session: quarantined, then released', () => {
    const state = reduceCodexQuarantines({}, [quarantined(1, 'a', 10), quarantined(2, 'b', 20)]);
    expect(state.a?.pid).toBe(10);
    expect(reduceCodexQuarantines(state, [released(3, 'a')])).toEqual({ b: state.b });
    expect(reduceCodexQuarantines(state, [released(3, 'a'), quarantined(4, 'a', 11)]).a?.pid).toBe(11);
  });

  it('drops a removed session’s and returns the same object when nothing concerns it', () => {
    const state = reduceCodexQuarantines({}, [quarantined(1, 'a', 10)]);
    expect(
      reduceCodexQuarantines(state, [{ seq: 2, hostEpoch: 'e', kind: 'session.removed', sessionId: 'a' }]),
    ).toEqual({});
    expect(
      reduceCodexQuarantines(state, [
        released(2, 'zzz'),
        { seq: 3, hostEpoch: 'e', kind: 'session.removed', sessionId: 'zzz' },
      ]),
    ).toBe(state);
  });
});

const problem = (seq: number, sessionId: string, choice: 'new_thread' | 'retry' | null): ChangeEvent => ({
  seq,
  hostEpoch: 'e',
  kind: 'codex.thread.changed',
  sessionId,
  threadProblem: {
    sessionId,
    threadId: 'th1',
    turnId: 't1',
    reason: 'no rollout found',
    noticedAt: 1,
    choice,
    chosenAt: choice === null ? null : 2,
    resolved: false,
  },
});

describe('Codex thread problems', () => {
  it('keeps the newest word on each session: noticed, chosen, settled; a removed session’s goes', () => {
    const noticed = reduceCodexThreadProblems({}, [problem(1, 'a', null)]);
    expect(noticed.a?.choice).toBeNull();
    expect(reduceCodexThreadProblems(noticed, [problem(2, 'a', 'new_thread')]).a?.choice).toBe('new_thread');
    expect(
      reduceCodexThreadProblems(noticed, [
        { seq: 3, hostEpoch: 'e', kind: 'codex.thread.changed', sessionId: 'a', threadProblem: null },
      ]),
    ).toEqual({});
    expect(
      reduceCodexThreadProblems(noticed, [{ seq: 3, hostEpoch: 'e', kind: 'session.removed', sessionId: 'a' }]),
    ).toEqual({});
    expect(reduceCodexThreadProblems(noticed, [problem(4, 'zzz', null)]).a).toBe(noticed.a);
  });
});

describe('Force stop', () => {
  const setup = (stopped: boolean) => {
    const { store, link } = setupStore();
    link.answer('codex.forceStop', () => ({ ok: true, result: { stopped } }));
    link.answer('codex.status', () => ({ ok: true, result: { quarantine: null, threadProblem: null } }));
    link.answer('turn.resume', () => ({ ok: true, result: { turn: turn({ turnId: 't1', status: 'running' }) } }));
    return { store, link };
  };

  it('from the quarantine notice: one codex.forceStop, then the status is read again; no turn runs', async () => {
    const { store, link } = setup(true);
    await store.getState().forceStopCodex('s1');
    expect(link.callsOf('codex.forceStop')).toEqual([{ sessionId: 's1' }]);
    expect(link.callsOf('codex.status')).toEqual([{ sessionId: 's1' }]);
    expect(link.callsOf('turn.resume')).toEqual([]);
  });

  it('from a turn that failed on it: the same codex.forceStop, then that turn runs again', async () => {
    const { store, link } = setup(true);
    await store.getState().forceStopCodex('s1', 't1');
    expect(link.callsOf('codex.forceStop')).toEqual([{ sessionId: 's1' }]);
    expect(link.callsOf('turn.resume')).toEqual([{ sessionId: 's1', turnId: 't1' }]);
  });

  it('not confirmed stopped: says so, and nothing runs again', async () => {
    const { store, link } = setup(false);
    await store.getState().forceStopCodex('s1', 't1');
    expect(link.callsOf('turn.resume')).toEqual([]);
    expect(store.getState().toasts.map((toast) => toast.message)).toEqual([
      expect.stringContaining('could not be confirmed stopped'),
    ]);
  });
});
