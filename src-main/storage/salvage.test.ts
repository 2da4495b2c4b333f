import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../testing/host-fixture';
import { DATABASE_FILE } from './database';
import { openStores, type Stores } from './stores';
import { corruptIndexPage } from './testing/corrupt-database';

function seed(stores: Stores, count: number): void {
  stores.transaction(() => {
    for (let index = 0; index < count; index += 1) {
      const sessionId = `s${index}`;
      stores.sessions.insert({
        sessionId,
        title: `Session ${index}`,
        titleSource: 'user',
        workspacePath: null,
        connectionId: 'offline-demo',
        model: null,
        permissionMode: 'ask',
        now: index,
      });
      stores.turns.insertTurn({
        sessionId,
        turnId: 't',
        origin: 'user',
        text: `hello ${index}`,
        maxSteps: 1,
        runId: `r${index}`,
        now: index,
      });
    }
  });
}

describe('salvaging a damaged database', () => {
  const dir = useTempDirs();

  it('moves nothing unless asked; asked, it copies every readable row and keeps the damaged file', () => {
    const dataDir = dir();
    const first = openStores(dataDir);
    seed(first, 40);
    first.close();
    corruptIndexPage(join(dataDir, DATABASE_FILE), 'sessions_by_recency');

    // Without being asked, nothing is moved (after a clean end the check does not even run).
    openStores(dataDir).close();
    expect(readdirSync(dataDir).filter((name) => name.includes('.damaged-'))).toEqual([]);

    const reports: Array<{
      damagedFile: string;
      copied: Readonly<Record<string, number>>;
      partial: readonly string[];
    }> = [];
    const stores = openStores(dataDir, { salvage: 'when_damaged', onSalvaged: (report) => reports.push(report) });
    try {
      expect(reports).toHaveLength(1);
      expect(reports[0]!.copied).toMatchObject({ sessions: 40, turns: 40, runs: 40 });
      expect(reports[0]!.partial).toEqual([]);
      expect(existsSync(reports[0]!.damagedFile)).toBe(true);
      expect(stores.sessions.get('s39')?.title).toBe('Session 39');
      expect(stores.sessions.list({ archived: false, limit: 100 })).toHaveLength(40);
    } finally {
      stores.close();
    }
  });

  it("'always' salvages even when the check finds nothing (damage found later, while recovering)", () => {
    const dataDir = dir();
    const first = openStores(dataDir);
    seed(first, 3);
    first.close();
    const reports: string[] = [];
    const stores = openStores(dataDir, { salvage: 'always', onSalvaged: (report) => reports.push(report.damagedFile) });
    try {
      expect(reports).toHaveLength(1);
      expect(stores.sessions.list({ archived: false, limit: 10 })).toHaveLength(3);
    } finally {
      stores.close();
    }
  });

  it('leaves a healthy database alone when asked to salvage only if damaged', () => {
    const dataDir = dir();
    const first = openStores(dataDir);
    seed(first, 2);
    first.close();
    const reports: string[] = [];
    openStores(dataDir, { salvage: 'when_damaged', onSalvaged: (report) => reports.push(report.damagedFile) }).close();
    expect(reports).toEqual([]);
  });
});
