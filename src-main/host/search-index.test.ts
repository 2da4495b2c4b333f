import { afterEach, describe, expect, it } from 'vitest';
import { withRawDatabase } from '../storage/testing/raw-database';
import { startTestHost, useTempDirs, type TestHost } from '../testing/host-fixture';

/** The WorkHub's full-text index across restarts: kept incrementally, never rebuilt at every start. */
const hosts: TestHost[] = [];
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close();
});

async function start(dataDir: string): Promise<TestHost> {
  const host = await startTestHost({ dataDir });
  hosts.push(host);
  return host;
}

async function whyFound(t: TestHost, query: string): Promise<Map<string, string>> {
  const { candidates } = await t.call('workhub.candidates', { query });
  return new Map(candidates.map((candidate) => [candidate.sessionId, candidate.why]));
}

describe('the WorkHub search index', () => {
  const dir = useTempDirs();

  async function seeded() {
    const dataDir = dir();
    const t = await start(dataDir);
    const alpha = (await t.call('session.create', { title: 'Alpha budget' })).session.sessionId;
    const beta = (await t.call('session.create', { title: 'Beta garden' })).session.sessionId;
    await t.call('turn.start', { sessionId: beta, turnId: 't1', text: 'Plant the tomatoes' });
    await t.waitForTurn(beta, 't1', ['completed']);
    expect((await whyFound(t, 'tomatoes')).get(beta)).toBe('recent messages mention it');
    await hosts.splice(0)[0]!.close();
    return { dataDir, alpha, beta };
  }

  it('is not rebuilt at start: an entry that is current stays as it was', async () => {
    const { dataDir, alpha } = await seeded();
    // Mark Alpha's entry so a rebuild would be seen: a rebuild writes it afresh from the session.
    withRawDatabase(dataDir, (db) =>
      db.prepare("UPDATE session_search SET body = 'sentinelword' WHERE session_id = ?").run(alpha),
    );
    const t = await start(dataDir);
    expect((await whyFound(t, 'sentinelword')).get(alpha)).toBe('recent messages mention it');
  });

  it('catches up at start with a session that changed while the index did not follow (a crash in between)', async () => {
    const { dataDir, beta } = await seeded();
    withRawDatabase(dataDir, (db) =>
      db.prepare("UPDATE sessions SET title = 'Zebra orchard', revision = revision + 1 WHERE session_id = ?").run(beta),
    );
    const t = await start(dataDir);
    expect((await whyFound(t, 'zebra')).get(beta)).toBe('title matches “zebra”');
  });

  it('forgets at start a session removed while the index did not follow', async () => {
    const { dataDir, alpha } = await seeded();
    withRawDatabase(dataDir, (db) => {
      db.pragma('foreign_keys = ON');
      db.prepare('DELETE FROM sessions WHERE session_id = ?').run(alpha);
    });
    await start(dataDir);
    expect(
      withRawDatabase(dataDir, (db) =>
        db.prepare('SELECT count(*) FROM session_search WHERE session_id = ?').pluck().get(alpha),
      ),
    ).toBe(0);
  });

  it('is rebuilt from the sessions when it is found damaged', async () => {
    const { dataDir, alpha, beta } = await seeded();
    // Garble the index's structure record (FTS5 keeps it in row 10 of its data table).
    withRawDatabase(dataDir, (db) =>
      db.unsafeMode(true).prepare("UPDATE session_search_data SET block = x'ffffffffffffffff' WHERE id = 10").run(),
    );
    const t = await start(dataDir);
    expect((await whyFound(t, 'tomatoes')).get(beta)).toBe('recent messages mention it');
    expect((await whyFound(t, 'alpha')).get(alpha)).toBe('title matches “alpha”');
  });
});
