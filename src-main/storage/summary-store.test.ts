import { afterEach, describe, expect, it } from 'vitest';
import type { SummaryRecord } from '../../src-shared/compaction-model';
import { tempDataDir } from '../testing/host-fixture';
import { openStores, type Stores } from './stores';

let stores: Stores | null = null;
let cleanup: (() => void) | null = null;
afterEach(() => {
  stores?.close();
  cleanup?.();
  stores = null;
  cleanup = null;
});

function open(): Stores {
  const temp = tempDataDir();
  cleanup = temp.cleanup;
  stores = openStores(temp.dir);
  return stores;
}

function summary(overrides: Partial<SummaryRecord>): SummaryRecord {
  return {
    summaryId: 'sum1',
    sessionId: 's1',
    firstPosition: 0,
    lastPosition: 9,
    firstItemId: 'i0',
    firstTurn: 1,
    lastTurn: 5,
    text: 'What was asked: a plan.',
    previousSummaryId: null,
    turnId: 't6',
    runId: 'r6',
    inputTokens: 900,
    outputTokens: 60,
    summaryTokens: 58,
    createdAt: 100,
    ...overrides,
  };
}

describe('summary store', () => {
  it('keeps every summary whole and answers the newest, which covers the older one’s range', () => {
    const s = open();
    s.sessions.insert({
      sessionId: 's1',
      title: 'S',
      titleSource: 'user',
      workspacePath: null,
      connectionId: 'c1',
      model: null,
      permissionMode: 'ask',
      now: 0,
    });
    expect(s.summaries.latest('s1')).toBeNull();
    s.summaries.insert(summary({}));
    s.summaries.insert(
      summary({
        summaryId: 'sum2',
        lastPosition: 30,
        lastTurn: 14,
        text: 'Chained.',
        previousSummaryId: 'sum1',
        createdAt: 200,
      }),
    );
    expect(s.summaries.latest('s1')).toMatchObject({
      summaryId: 'sum2',
      firstPosition: 0,
      lastPosition: 30,
      previousSummaryId: 'sum1',
      text: 'Chained.',
    });
    expect(s.summaries.list('s1').map((record) => record.summaryId)).toEqual(['sum1', 'sum2']);
    expect(s.summaries.list('s1')[0]).toEqual(summary({}));
    // A Codex compaction has no text.
    s.summaries.insert(summary({ summaryId: 'sum3', lastPosition: 40, text: null, createdAt: 300 }));
    expect(s.summaries.latest('s1')?.text).toBeNull();
  });
});
