import { describe, expect, it } from 'vitest';
import { tempDataDir } from '../testing/host-fixture';
import { openDatabase } from './database';
import { createAcpStore } from './acp-store';

describe('ACP resume points', () => {
  it('applies each numbered update of the bound instance once, and none of a replaced instance', () => {
    const temp = tempDataDir();
    const db = openDatabase(temp.dir);
    db.prepare(
      "INSERT INTO sessions (session_id, title, title_source, connection_id, permission_mode, revision, created_at, updated_at) VALUES ('s1', 'S', 'user', 'c1', 'ask', 1, 0, 0)",
    ).run();
    const store = createAcpStore(db);
    expect(store.claim('s1', 'i1', 1)).toBe(false);
    store.bind(
      's1',
      { acpSessionId: 'a1', instanceId: 'i1', pid: 42, agentName: 'test', agentTitle: null, agentVersion: '1.0.0' },
      5,
    );
    expect([store.claim('s1', 'i1', 1), store.claim('s1', 'i1', 1), store.claim('s1', 'i1', 2)]).toEqual([
      true,
      false,
      true,
    ]);
    store.bind(
      's1',
      {
        acpSessionId: 'a1',
        instanceId: 'i2',
        pid: 43,
        agentName: 'test',
        agentTitle: 'Test agent',
        agentVersion: '1.0.1',
      },
      6,
    );
    expect([store.claim('s1', 'i1', 3), store.claim('s1', 'i2', 1)]).toEqual([false, true]);
    expect(store.resumePoint('s1')).toMatchObject({
      acpSessionId: 'a1',
      instanceId: 'i2',
      pid: 43,
      agentTitle: 'Test agent',
      agentVersion: '1.0.1',
      lastSeq: 1,
    });
    db.close();
    temp.cleanup();
  });
});
