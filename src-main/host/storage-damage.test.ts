import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../storage/database';
import { corruptIndexPage } from '../storage/testing/corrupt-database';
import { startTestHost, useTempDirs } from '../testing/host-fixture';

describe('damage found in the database after start', () => {
  const dir = useTempDirs();

  it('answers storage_damaged naming the file and the salvage command, says so once, and starts no new turn', async () => {
    const dataDir = dir();
    const first = await startTestHost({ dataDir });
    const sessionIds: string[] = [];
    for (let index = 0; index < 40; index += 1)
      sessionIds.push((await first.call('session.create', { title: `Session ${index}` })).session.sessionId);
    await first.close();
    // A clean end: the check at open does not run, so the host starts on the damaged file.
    const file = join(dataDir, DATABASE_FILE);
    corruptIndexPage(file, 'sessions_by_recency');

    const t = await startTestHost({ dataDir });
    try {
      const listed = await t.invoke('session.list', {});
      expect(listed.ok).toBe(false);
      const error = listed.ok ? null : listed.error;
      expect(error?.code).toBe('storage_damaged');
      expect(error?.message).toContain(file);
      expect(error?.message).toContain('--salvage');

      // Reads that do not touch the damage still answer; new work is refused with the same reason.
      expect((await t.call('session.get', { sessionId: sessionIds[0] ?? '' })).session.title).toBe('Session 0');
      const started = await t.invoke('turn.start', {
        sessionId: sessionIds[0] ?? '',
        turnId: 'after-damage',
        text: 'hello',
      });
      expect(started.ok ? null : started.error.code).toBe('storage_damaged');
      expect((await t.invoke('session.list', {})).ok).toBe(false);

      const notices = t.events.filter((event) => event.kind === 'host.notice' && event.code === 'storage_damaged');
      expect(notices).toHaveLength(1);
      expect(notices[0]?.kind === 'host.notice' ? notices[0].message : '').toContain(file);
    } finally {
      await t.close();
    }
  });
});
