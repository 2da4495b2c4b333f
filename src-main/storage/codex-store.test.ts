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

  it('a command of an ended turn settles its running (else stopped) entry, and one the result does not list is added', () => {
    const result = {
      codexTurnId: 'ct1',
      sessionId: 's1',
      turnId: 't1',
      runId: 'r1',
      status: 'interrupted' as const,
      finalMessage: '',
      filesChanged: [],
      commands: [
        { command: 'ls', exitCode: null, status: 'stopped' },
        { command: 'ls', exitCode: null, status: 'running' },
      ],
      inputTokens: 0,
      outputTokens: 0,
      errorMessage: null,
      structured: null,
      createdAt: 1,
    };
    store.recordTurnResult(result);
    store.settleCommand('ct1', 'ls', { exitCode: 0, status: 'completed' });
    store.settleCommand('ct1', 'ls', { exitCode: 1, status: 'failed' });
    store.settleCommand('ct1', 'pwd', { exitCode: 0, status: 'completed' });
    expect(store.turnResults('s1', 't1')[0]?.commands).toEqual([
      { command: 'ls', exitCode: 1, status: 'failed' },
      { command: 'ls', exitCode: 0, status: 'completed' },
      { command: 'pwd', exitCode: 0, status: 'completed' },
    ]);
  });
});
