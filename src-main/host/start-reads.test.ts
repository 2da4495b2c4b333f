import { afterEach, describe, expect, it } from 'vitest';
import { startTestHost, useTempDirs } from '../testing/host-fixture';
import { installStatementRecorder, queryPlans, type StatementRecorder } from '../testing/statement-recorder';

/** Tables that grow with the record (every session, turn, run, event and message kept). */
const GROWING = ['sessions', 'turns', 'runs', 'ledger', 'transcript_items', 'queued_messages', 'shell_runs'];

describe('start-up', () => {
  const dir = useTempDirs();
  let recorder: StatementRecorder | null = null;
  afterEach(() => recorder?.uninstall());

  it('reads no table that grows with the record in full: each statement it runs there searches an index', async () => {
    const dataDir = dir();
    await (await startTestHost({ dataDir })).close();
    recorder = installStatementRecorder();
    recorder.start();
    await (await startTestHost({ dataDir })).close();
    recorder.stop();

    const reads = recorder.executed.filter(({ sql }) => /^\s*(SELECT|UPDATE|DELETE|WITH)\b/i.test(sql));
    const plans = queryPlans(dataDir, reads);
    const scans = reads.flatMap(({ sql }, index) =>
      (plans[index] ?? [])
        .filter((detail) => GROWING.some((table) => new RegExp(`^SCAN ${table}\\b(?! USING)`).test(detail)))
        .map((detail) => `${detail}: ${sql.replace(/\s+/g, ' ').trim()}`),
    );
    expect(reads.length).toBeGreaterThan(5);
    expect(scans).toEqual([]);
  });
});
