import { describe, expect, it } from 'vitest';
import type { FileChangeRecord } from '../../src-shared/checkpoint-model';
import { tempDataDir } from '../testing/host-fixture';
import { createCheckpointStore } from './checkpoint-store';
import { openDatabase } from './database';

const file = (path: string, added: number | null): FileChangeRecord => ({
  path,
  change: 'created',
  added,
  removed: added === null ? null : 1,
  writer: { kind: 'command', command: 'make' },
});

describe('the checkpoint store’s listing', () => {
  it('reads each change set’s first files by path and its totals, pages the rest, and lists paths', () => {
    const temp = tempDataDir();
    const db = openDatabase(temp.dir);
    db.prepare(
      "INSERT INTO sessions (session_id, title, title_source, connection_id, permission_mode, revision, created_at, updated_at) VALUES ('s1', 'S', 'user', 'c1', 'ask', 1, 0, 0)",
    ).run();
    const store = createCheckpointStore(db);
    const base = { sessionId: 's1', origin: 'turn' as const, revertsChangeSetId: null, workspacePath: '/w' };
    store.insertPending({ ...base, changeSetId: 'big', turnId: 't1', now: 1 });
    store.insertPending({ ...base, changeSetId: 'empty', turnId: 't2', now: 2 });
    // Written out of order, with a binary file (no line counts).
    const files = [file('c.txt', 3), file('a.txt', 1), file('e.bin', null), file('b.txt', 2), file('d.txt', 4)];
    store.complete('big', 'after', files, null, 3);
    store.complete('empty', 'after', [], null, 4);

    const [big, empty] = store.summaries('s1', undefined, 2);
    expect(big).toMatchObject({ changeSetId: 'big', fileCount: 5, added: 10, removed: 4 });
    expect(big?.files.map((item) => item.path)).toEqual(['a.txt', 'b.txt']);
    expect(big?.files[0]).toEqual(file('a.txt', 1));
    expect(empty).toMatchObject({ changeSetId: 'empty', fileCount: 0, added: 0, removed: 0, files: [] });
    // Asked for no files, a change set still carries its totals.
    expect(store.summaries('s1', 't1', 0)).toMatchObject([{ changeSetId: 'big', fileCount: 5, files: [] }]);
    expect(store.files('big', 2, 2).map((item) => item.path)).toEqual(['c.txt', 'd.txt']);
    expect(store.files('big', 4, 10)).toEqual([file('e.bin', null)]);
    expect(store.paths('big')).toEqual(['a.txt', 'b.txt', 'c.txt', 'd.txt', 'e.bin']);
    db.close();
    temp.cleanup();
  });
});
