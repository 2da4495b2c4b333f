import { describe, expect, it } from 'vitest';
import type { ChangeEvent } from '../../../src-shared/events';
import type { RunProgress } from '../../../src-shared/run-progress';
import { events, turn } from './record-fixtures';
import {
  applySnapshotProgress,
  NO_PROGRESS,
  reduceRunProgressEvent,
  type RunProgressState,
} from './run-progress-reducer';

const waiting: RunProgress = { phase: 'waiting_for_provider', attempt: 1, maxAttempts: 4, since: 1000 };
const retrying: RunProgress = {
  phase: 'retrying',
  attempt: 2,
  maxAttempts: 4,
  reason: 'rate_limited',
  since: 2000,
  resumeAt: 10_000,
};

const reduce = (state: RunProgressState, list: readonly ChangeEvent[]) => list.reduce(reduceRunProgressEvent, state);

describe('reduceRunProgressEvent', () => {
  it('keeps the latest wait of a session and clears it once the provider answers', () => {
    const [first, second, answering] = events(
      { kind: 'run.progress', sessionId: 's1', turnId: 't1', runId: 'r1', progress: waiting },
      { kind: 'run.progress', sessionId: 's1', turnId: 't1', runId: 'r1', progress: retrying },
      { kind: 'run.progress', sessionId: 's1', turnId: 't1', runId: 'r1', progress: null },
    );
    expect(reduce(NO_PROGRESS, [first!])).toEqual({ s1: { turnId: 't1', runId: 'r1', progress: waiting } });
    expect(reduce(NO_PROGRESS, [first!, second!]).s1?.progress).toEqual(retrying);
    expect(reduce(NO_PROGRESS, [first!, second!, answering!])).toEqual({});
  });

  it('clears the wait when the run ends or another run takes over, not while it still runs', () => {
    const start = reduce(
      NO_PROGRESS,
      events({ kind: 'run.progress', sessionId: 's1', turnId: 't1', runId: 'r1', progress: waiting }),
    );
    const running = turn({ turnId: 't1', status: 'running' });
    expect(reduce(start, events({ kind: 'turn.changed', turn: running }))).toBe(start);
    expect(reduce(start, events({ kind: 'turn.changed', turn: turn({ turnId: 't1', status: 'failed' }) }))).toEqual({});
    expect(
      reduce(
        start,
        events({ kind: 'turn.changed', turn: { ...running, latestRun: { ...running.latestRun, runId: 'r2' } } }),
      ),
    ).toEqual({});
    expect(reduce(start, events({ kind: 'turn.changed', turn: turn({ turnId: 'other', status: 'completed' }) }))).toBe(
      start,
    );
    expect(reduce(start, events({ kind: 'session.removed', sessionId: 's1' }))).toEqual({});
  });

  it('takes a session snapshot as it is: its run waits, or nothing does', () => {
    const live = { turnId: 't1', runId: 'r1', progress: retrying };
    expect(applySnapshotProgress(NO_PROGRESS, 's1', live)).toEqual({ s1: live });
    expect(applySnapshotProgress({ s1: live, s2: live }, 's1', null)).toEqual({ s2: live });
  });
});
