import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChangeEvent } from '../../src-shared/events';
import type { RunSummary, TranscriptItem, TurnDetail } from '../../src-shared/model';
import type { ShellRunRecord } from '../../src-shared/shell-run-model';
import { AckLog } from './acknowledged';
import { recordSaysStillRunning } from './orphan-check';
import { checkRecord, stuckRuns, type RecordSnapshot } from './record-check';
import { createRng } from './rng';
import { planCycle } from './scenarios';
import { formatReport, passed, runSoak } from './soak-run';

const SESSION = 'session-1';

function item(text: string): TranscriptItem {
  return {
    itemId: 'item-1',
    sessionId: SESSION,
    turnId: 'turn-1',
    runId: 'run-1',
    position: 1,
    kind: 'assistant_message',
    text,
    state: 'streaming',
    data: null,
    createdAt: 1,
  };
}

function run(status: RunSummary['status'], startedAt = 1): RunSummary & { sessionId: string; turnId: string } {
  return {
    runId: 'run-1',
    attempt: 1,
    kind: 'initial',
    status,
    terminalReason: null,
    errorCode: null,
    errorMessage: null,
    startedAt,
    endedAt: null,
    sessionId: SESSION,
    turnId: 'turn-1',
  };
}

function shellRun(overrides: Partial<ShellRunRecord>): ShellRunRecord {
  return {
    shellRunId: 'shell-1',
    sessionId: SESSION,
    turnId: 'turn-1',
    runId: 'run-1',
    toolCallId: null,
    command: 'true',
    cwd: '/tmp',
    status: 'orphaned',
    exitCode: null,
    signal: null,
    pid: 42,
    startedAt: 1,
    endedAt: 2,
    stdoutTail: '',
    stderrTail: '',
    stdoutTruncated: false,
    stderrTruncated: false,
    failureMessage: null,
    ...overrides,
  };
}

function snapshot(parts: Partial<RecordSnapshot>): RecordSnapshot {
  return {
    sessions: new Set([SESSION]),
    items: new Map(),
    turns: new Map<string, TurnDetail>(),
    runs: new Map(),
    interactions: new Map(),
    goals: new Map(),
    queue: new Map(),
    shellRuns: new Map(),
    ...parts,
  };
}

function event(body: Record<string, unknown>, seq: number): ChangeEvent {
  return { ...body, seq, hostEpoch: 'epoch' } as ChangeEvent;
}

function streamed(...deltas: string[]): AckLog {
  const log = new AckLog();
  log.addEvent(event({ kind: 'transcript.appended', item: item('') }, 1));
  deltas.forEach((text, index) =>
    log.addEvent(event({ kind: 'transcript.delta', sessionId: SESSION, itemId: 'item-1', text, length: 0 }, index + 2)),
  );
  return log;
}

describe('the soak checks', () => {
  it('holds a streamed item whose record has every acknowledged delta, and more', () => {
    const log = streamed('chunk 1 ', 'chunk 2 ');
    const check = checkRecord(log, snapshot({ items: new Map([['item-1', item('chunk 1 chunk 2 chunk 3')]]) }));
    expect(check.checked.transcript).toBe(3);
    expect(check.lost).toEqual([]);
  });

  it('reports the acknowledged deltas a record lacks, once per item, counting each lost event', () => {
    const log = streamed('chunk 1 ', 'chunk 2 ', 'chunk 3 ');
    const check = checkRecord(log, snapshot({ items: new Map([['item-1', item('chunk 1 ')]]) }));
    expect(check.lost).toHaveLength(1);
    expect(check.lost[0]).toMatchObject({ category: 'transcript', events: 2 });
    expect(check.lost[0]?.what).toContain('the client had seen 24');
  });

  it('reports live shell output the record did not keep, and an acknowledged session that is gone', () => {
    const log = new AckLog();
    log.addAnswer({ op: 'session.create', sessionId: 'gone' });
    log.addEvent(
      event({ kind: 'shell.output', sessionId: SESSION, shellRunId: 'shell-1', stream: 'stdout', text: 'line 1\n' }, 1),
    );
    log.addEvent(
      event({ kind: 'shell.output', sessionId: SESSION, shellRunId: 'shell-1', stream: 'stdout', text: 'line 2\n' }, 2),
    );
    const check = checkRecord(
      log,
      snapshot({ shellRuns: new Map([['shell-1', shellRun({ stdoutTail: 'line 1\n' })]]) }),
    );
    expect(check.lost.map((loss) => [loss.category, loss.events])).toEqual([
      ['session', 1],
      ['shell_output', 1],
    ]);
  });

  it('reports a run acknowledged as ended that the record calls something else, and a run left running', () => {
    const log = new AckLog();
    log.addAnswer({ op: 'turn.start', sessionId: SESSION, turnId: 'turn-1', runId: 'run-1', status: 'completed' });
    const record = snapshot({ runs: new Map([['run-1', run('running', 100)]]) });
    expect(checkRecord(log, record).lost[0]?.what).toBe(
      'run run-1 of turn turn-1 ended completed as acknowledged, the record says running',
    );
    expect(stuckRuns(record, 200)).toHaveLength(1);
    expect(stuckRuns(record, 50)).toEqual([]);
  });

  it('counts a live process as seen only when its record says it may still be running', () => {
    expect(
      recordSaysStillRunning(
        shellRun({ failureMessage: 'The app restarted without a live handle to this process' }),
        10,
      ),
    ).toBe(false);
    expect(
      recordSaysStillRunning(
        shellRun({ failureMessage: 'Cairn could not prove this is the same process; it may still be running' }),
        10,
      ),
    ).toBe(true);
    expect(
      recordSaysStillRunning(
        shellRun({ failureMessage: 'Cairn stopped this command, which was still running after the app restarted' }),
        10,
      ),
    ).toBe(false);
    expect(recordSaysStillRunning(shellRun({ status: 'running', startedAt: 20 }), 10)).toBe(true);
  });

  it('draws the same plan from the same seed', () => {
    expect(planCycle(createRng(7))).toEqual(planCycle(createRng(7)));
    expect(planCycle(createRng(7))).not.toEqual(planCycle(createRng(8)));
  });
});

describe('npm run soak', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  // Two real SIGKILLs of a serve child, so the harness cannot rot (12–23 s on this shared machine; over 60 s
  // at load 11–14, hence the long budget).
  // Issue 11's fixes are in: every invariant must hold — nothing acknowledged lost, no run left
  // running, no process alive unseen, no goal stalled, every resume and restart working.
  it.skipIf(process.platform !== 'linux')(
    'kills and restarts a real host twice and every invariant holds (Linux: it reads /proc)',
    { timeout: 180_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'cairn-soak-test-'));
      dirs.push(dir);
      const report = await runSoak({ seed: 9, kills: 2, dataDir: join(dir, 'data'), limits: { orphanWaitMs: 1500 } });
      const text = formatReport(report);

      expect(report.kills).toBe(2);
      expect(report.checked.transcript).toBeGreaterThan(0);
      expect(report.checked.turn).toBeGreaterThan(0);
      expect(report.resumesOk + report.resumesFailed).toBeGreaterThan(0);
      expect(report.findings, text).toEqual([]);
      expect(
        Object.values(report.lost).reduce((total, count) => total + count, 0),
        text,
      ).toBe(0);
      expect(report.stuck, text).toBe(0);
      expect(report.unseen, text).toBe(0);
      expect(report.goalsStalled, text).toBe(0);
      expect(report.resumesFailed, text).toBe(0);
      expect(report.questionsFailed, text).toBe(0);
      expect(report.restartRefusals, text).toBe(0);
      expect(passed(report)).toBe(true);
      expect(text).toContain('Every invariant held.');
      expect(text).toMatch(/acknowledged events checked {2}\d+/);
    },
  );
});
