import { describe, expect, it } from 'vitest';
import type { ShellRunRecord } from '../../src-shared/shell-run-model';
import { canStopShellRun, shellRunDuration, shellStatusView } from './shell-run';

const base: ShellRunRecord = {
  shellRunId: 'sh1',
  sessionId: 's1',
  turnId: 't1',
  runId: 'r1',
  toolCallId: 'c1',
  command: 'npm test',
  cwd: '/work',
  status: 'running',
  exitCode: null,
  signal: null,
  pid: 1,
  startedAt: 1000,
  endedAt: null,
  stdoutTail: '',
  stderrTail: '',
  stdoutTruncated: false,
  stderrTruncated: false,
  failureMessage: null,
};

describe('shell run status', () => {
  it('reads each status as a chip', () => {
    expect(shellStatusView(base)).toMatchObject({ label: 'Running', tone: 'live' });
    expect(shellStatusView({ ...base, status: 'exited', exitCode: 0 })).toMatchObject({
      label: 'Exit 0',
      tone: 'success',
    });
    expect(shellStatusView({ ...base, status: 'exited', exitCode: 2 })).toMatchObject({
      label: 'Exit 2',
      tone: 'danger',
    });
    expect(shellStatusView({ ...base, status: 'killed', signal: 'SIGTERM' }).detail).toContain('SIGTERM');
    expect(shellStatusView({ ...base, status: 'timed_out' }).label).toBe('Timed out');
    expect(
      shellStatusView({
        ...base,
        status: 'orphaned',
        failureMessage: 'The app restarted without a live handle to this process',
      }).detail,
    ).toBe('The app restarted without a live handle to this process');
  });

  it('counts a live command up to now and a finished one to its end', () => {
    expect(shellRunDuration(base, 4000)).toBe(3000);
    expect(shellRunDuration({ ...base, status: 'exited', exitCode: 0, endedAt: 1500 }, 9999)).toBe(500);
    expect(shellRunDuration({ ...base, status: 'orphaned' }, 9999)).toBe(0);
  });

  it('offers Stop for a command Cairn runs, not for one Codex runs in its own process tree (no pid)', () => {
    expect(canStopShellRun({ ...base, status: 'running', pid: 4242 })).toBe(true);
    expect(canStopShellRun({ ...base, status: 'starting', pid: null })).toBe(true);
    expect(canStopShellRun({ ...base, status: 'running', pid: null })).toBe(false);
    expect(canStopShellRun({ ...base, status: 'exited', pid: 4242 })).toBe(false);
  });
});
