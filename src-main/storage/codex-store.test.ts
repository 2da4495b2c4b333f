import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDataDir } from '../testing/host-fixture';
import { createCodexStore, type CodexStore } from './codex-store';
import { openDatabase, type Db } from './database';

describe('codex store', () => {
  let db: Db;
  let store: CodexStore;
  let cleanup: () => void;

  beforeEach(() => {
    const temp = tempDataDir();
    cleanup = temp.cleanup;
    db = openDatabase(temp.dir);
    store = createCodexStore(db);
  });
  afterEach(() => {
    db.close();
    cleanup();
  });

  it('applies each (instance, sequence) pair once and discards a replaced instance', () => {
    expect(store.claim('s1', 'i1', 1)).toBe(false);
    store.bind('s1', { threadId: 'th1', instanceId: 'i1', codexVersion: '0.171.0' }, 10);
    expect(store.claim('s1', 'i1', 1)).toBe(true);
    expect(store.claim('s1', 'i1', 1)).toBe(false);
    expect(store.claim('s1', 'i1', 2)).toBe(true);
    expect(store.resumePoint('s1')).toMatchObject({
      threadId: 'th1',
      instanceId: 'i1',
      lastSeq: 2,
      codexVersion: '0.171.0',
    });

    store.bind('s1', { threadId: 'th1', instanceId: 'i2', codexVersion: '0.171.0' }, 20);
    expect(store.claim('s1', 'i1', 3)).toBe(false);
    expect(store.claim('s1', 'i2', 1)).toBe(true);
    expect(store.resumePoint('s1')).toMatchObject({ instanceId: 'i2', lastSeq: 1, updatedAt: 20 });
    store.forget('s1');
    expect(store.resumePoint('s1')).toBeNull();
  });
});
