import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useTempDirs } from '../testing/host-fixture';
import { ftsQuery, MEMORY_DATABASE_FILE, openMemoryStore, type MemoryStore, type NewMemory } from './memory-store';

describe('memory store', () => {
  const dir = useTempDirs();
  const opened: MemoryStore[] = [];
  afterEach(() => opened.splice(0).forEach((store) => store.close()));
  const open = (dataDir = dir()) => {
    const opening = openMemoryStore(dataDir);
    if (!('store' in opening)) throw new Error(opening.unavailable);
    opened.push(opening.store);
    return opening.store;
  };
  const memory = (memoryId: string, text: string, workspacePath: string | null, now = 1): NewMemory => ({
    memoryId,
    text,
    scope: workspacePath === null ? 'global' : 'workspace',
    workspacePath,
    sourceSessionId: 's1',
    sourceTurnId: 't1',
    editedBy: 'agent',
    now,
  });

  it('finds memories by full text, best match first, within a workspace and the global ones', () => {
    const store = open();
    store.insert(memory('m1', 'The project uses pnpm, never npm', '/work/a', 1));
    store.insert(memory('m2', 'Prefer British spelling in documentation', null, 2));
    store.insert(memory('m3', 'Tests run with vitest and pnpm test', '/work/b', 3));
    store.insert(memory('m4', 'Déploiement: pnpm build then copy', '/work/a', 4));

    expect(
      store
        .search('pnpm', '/work/a', 10)
        .map((m) => m.memoryId)
        .sort(),
    ).toEqual(['m1', 'm4']);
    expect(store.search('spelling', '/work/a', 10).map((m) => m.memoryId)).toEqual(['m2']);
    // Prefix and diacritics: "deploiem" finds "Déploiement".
    expect(store.search('deploiem', '/work/a', 10).map((m) => m.memoryId)).toEqual(['m4']);
    // More matching words rank first.
    expect(store.list({ query: 'vitest pnpm', limit: 10 })[0]?.memoryId).toBe('m3');
    // Punctuation cannot break the FTS syntax.
    expect(store.search('"pnpm" OR (', '/work/a', 10)).toHaveLength(2);
    expect(store.search('?!', null, 10)).toEqual([]);
    expect(store.newestFor('/work/a', 10).map((m) => m.memoryId)).toEqual(['m4', 'm2', 'm1']);
  });

  it('keeps the index in step with edits and deletions', () => {
    const store = open();
    store.insert(memory('m1', 'Deploy on Fridays', null));
    const edited = store.update({
      memoryId: 'm1',
      text: 'Never deploy on Fridays',
      scope: 'global',
      workspacePath: null,
      expectedRevision: 1,
      now: 5,
    });
    expect(edited).toMatchObject({ ok: { revision: 2, editedBy: 'person', text: 'Never deploy on Fridays' } });
    expect(store.search('never', null, 10)).toHaveLength(1);
    expect(store.remove('m1', 2)).toMatchObject({ ok: { memoryId: 'm1' } });
    expect(store.search('deploy', null, 10)).toEqual([]);
  });

  it('refuses a write made against an older revision (the person always wins)', () => {
    const store = open();
    store.insert(memory('m1', 'One', null));
    expect(
      store.update({ memoryId: 'm1', text: 'Two', scope: 'global', workspacePath: null, expectedRevision: 1, now: 2 }),
    ).toHaveProperty('ok');
    const stale = store.update({
      memoryId: 'm1',
      text: 'Three',
      scope: 'global',
      workspacePath: null,
      expectedRevision: 1,
      now: 3,
    });
    expect(stale).toMatchObject({ conflict: { text: 'Two', revision: 2 } });
    expect(store.remove('m1', 1)).toMatchObject({ conflict: { revision: 2 } });
    expect(store.get('m1')?.text).toBe('Two');
    expect(
      store.update({ memoryId: 'nope', text: 'x', scope: 'global', workspacePath: null, expectedRevision: 1, now: 3 }),
    ).toEqual({ missing: true });
  });

  it('keeps its memories across reopening the file', () => {
    const dataDir = dir();
    const first = open(dataDir);
    first.insert(memory('m1', 'Remember me', null));
    first.close();
    expect(open(dataDir).get('m1')?.text).toBe('Remember me');
  });

  it('says why when the file cannot be opened, instead of throwing', () => {
    const dataDir = dir();
    mkdirSync(join(dataDir, MEMORY_DATABASE_FILE));
    const opening = openMemoryStore(dataDir);
    expect(opening).toHaveProperty('unavailable');
    expect('unavailable' in opening ? opening.unavailable : '').toMatch(
      /^Memory is unavailable: Cairn could not open .*memory\.sqlite/,
    );
  });

  it('builds FTS queries from words only', () => {
    expect(ftsQuery('hello, "world"')).toBe('"hello"* OR "world"*');
    expect(ftsQuery('  -- ')).toBeNull();
  });
});
