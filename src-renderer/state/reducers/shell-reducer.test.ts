import { describe, expect, it } from 'vitest';
import type { ShellRunRecord } from '../../../src-shared/shell-run-model';
import { events } from './record-fixtures';
import {
  appendChunk,
  appendShellOutput,
  applyShellList,
  applyShellRecord,
  EMPTY_SHELL,
  reduceShellEvent,
  sessionShellRunIds,
  SHELL_OUTPUT_CAP,
  SHELL_RUNS_KEPT,
  shellRunIdForToolCall,
  type ShellState,
} from './shell-reducer';

function run(overrides: Partial<ShellRunRecord> & { shellRunId: string }): ShellRunRecord {
  return {
    sessionId: 's1',
    turnId: 't1',
    runId: 'r1',
    toolCallId: 'call-1',
    command: 'echo hi',
    cwd: '/work',
    status: 'running',
    exitCode: null,
    signal: null,
    pid: 42,
    startedAt: 1000,
    endedAt: null,
    stdoutTail: '',
    stderrTail: '',
    stdoutTruncated: false,
    stderrTruncated: false,
    failureMessage: null,
    ...overrides,
  };
}

const textOf = (state: ShellState, id: string) => state.runsById[id]?.chunks.map((chunk) => chunk.text).join('') ?? '';

describe('shell output', () => {
  it('merges pieces of the same stream and keeps the streams apart, in order', () => {
    let state = applyShellRecord(EMPTY_SHELL, run({ shellRunId: 'sh1', status: 'starting' }));
    state = appendShellOutput(state, 's1', 'sh1', 'stdout', 'line 1\n');
    state = appendShellOutput(state, 's1', 'sh1', 'stdout', 'line 2\n');
    state = appendShellOutput(state, 's1', 'sh1', 'stderr', 'oops\n');
    state = appendShellOutput(state, 's1', 'sh1', 'stdout', 'line 3\n');
    expect(state.runsById.sh1?.chunks).toEqual([
      { stream: 'stdout', text: 'line 1\nline 2\n' },
      { stream: 'stderr', text: 'oops\n' },
      { stream: 'stdout', text: 'line 3\n' },
    ]);
    expect(state.runsById.sh1?.size).toBe(26);
  });

  it('keeps only the last characters up to the cap, across chunks', () => {
    let result = appendChunk([], 0, { stream: 'stdout', text: 'aaaa' }, 10);
    result = appendChunk(result.chunks, result.size, { stream: 'stderr', text: 'bbbb' }, 10);
    result = appendChunk(result.chunks, result.size, { stream: 'stdout', text: 'cccccc' }, 10);
    expect(result.chunks).toEqual([
      { stream: 'stderr', text: 'bbbb' },
      { stream: 'stdout', text: 'cccccc' },
    ]);
    expect(result.size).toBe(10);
    expect(result.cut).toBe(true);
    const cutInside = appendChunk(result.chunks, result.size, { stream: 'stdout', text: 'dd' }, 10);
    expect(cutInside.chunks).toEqual([
      { stream: 'stderr', text: 'bb' },
      { stream: 'stdout', text: 'ccccccdd' },
    ]);
  });

  it('bounds a flood of live output to SHELL_OUTPUT_CAP and says earlier output was let go', () => {
    let state = applyShellRecord(EMPTY_SHELL, run({ shellRunId: 'sh1', status: 'starting' }));
    const piece = `${'x'.repeat(999)}\n`;
    for (let index = 0; index < 300; index += 1) state = appendShellOutput(state, 's1', 'sh1', 'stdout', piece);
    expect(state.runsById.sh1?.size).toBe(SHELL_OUTPUT_CAP);
    expect(textOf(state, 'sh1')).toHaveLength(SHELL_OUTPUT_CAP);
    expect(state.runsById.sh1?.clipped).toBe(true);
  });

  it('keeps output that arrives before the record, and ignores output after the end', () => {
    let state = appendShellOutput(EMPTY_SHELL, 's1', 'sh1', 'stdout', 'early\n');
    expect(state.runsById.sh1?.record).toBeNull();
    expect(sessionShellRunIds(state, 's1')).toEqual([]);
    state = applyShellRecord(state, run({ shellRunId: 'sh1', stdoutTail: '' }));
    expect(textOf(state, 'sh1')).toBe('early\n');
    expect(sessionShellRunIds(state, 's1')).toEqual(['sh1']);
    state = applyShellRecord(
      state,
      run({ shellRunId: 'sh1', status: 'exited', exitCode: 0, endedAt: 2000, stdoutTail: 'early\nlate\n' }),
    );
    expect(textOf(state, 'sh1')).toBe('early\nlate\n');
    expect(appendShellOutput(state, 's1', 'sh1', 'stdout', 'after the end')).toBe(state);
  });
});

describe('shell run records', () => {
  it('follows a command through its statuses and never goes back to a live one', () => {
    let state = applyShellRecord(EMPTY_SHELL, run({ shellRunId: 'sh1', status: 'starting', pid: null }));
    state = applyShellRecord(state, run({ shellRunId: 'sh1', status: 'running' }));
    expect(state.runsById.sh1?.record?.status).toBe('running');
    expect(applyShellRecord(state, run({ shellRunId: 'sh1', status: 'starting' }))).toBe(state);
    state = applyShellRecord(state, run({ shellRunId: 'sh1', status: 'killed', signal: 'SIGTERM', endedAt: 3000 }));
    expect(state.runsById.sh1?.record?.status).toBe('killed');
    expect(applyShellRecord(state, run({ shellRunId: 'sh1', status: 'running' }))).toBe(state);
    expect(
      applyShellRecord(state, run({ shellRunId: 'sh1', status: 'killed', signal: 'SIGTERM', endedAt: 3000 })),
    ).toBe(state);
  });

  it('keeps live output seen from the start over the final tails, which lose the interleaving', () => {
    let state = applyShellRecord(EMPTY_SHELL, run({ shellRunId: 'sh1', status: 'starting' }));
    state = appendShellOutput(state, 's1', 'sh1', 'stdout', 'a\n');
    state = appendShellOutput(state, 's1', 'sh1', 'stderr', 'b\n');
    state = appendShellOutput(state, 's1', 'sh1', 'stdout', 'c\n');
    state = applyShellRecord(
      state,
      run({ shellRunId: 'sh1', status: 'exited', exitCode: 1, stdoutTail: 'a\nc\n', stderrTail: 'b\n', endedAt: 2000 }),
    );
    expect(state.runsById.sh1?.chunks.map((chunk) => chunk.text)).toEqual(['a\n', 'b\n', 'c\n']);
  });

  it('takes the final tails when the window joined a command midway', () => {
    let state = applyShellRecord(EMPTY_SHELL, run({ shellRunId: 'sh1', stdoutTail: 'line 1\n' }));
    expect(state.runsById.sh1?.fromStart).toBe(false);
    state = appendShellOutput(state, 's1', 'sh1', 'stdout', 'line 3\n');
    state = applyShellRecord(
      state,
      run({
        shellRunId: 'sh1',
        status: 'exited',
        exitCode: 0,
        endedAt: 2000,
        stdoutTail: 'line 1\nline 2\nline 3\n',
        stdoutTruncated: true,
      }),
    );
    expect(textOf(state, 'sh1')).toBe('line 1\nline 2\nline 3\n');
    expect(state.runsById.sh1?.clipped).toBe(true);
  });

  it('takes a live command’s tails again when re-read after a reconnect', () => {
    let state = applyShellRecord(EMPTY_SHELL, run({ shellRunId: 'sh1', status: 'starting' }));
    state = appendShellOutput(state, 's1', 'sh1', 'stdout', 'line 1\n');
    state = applyShellList(state, 's1', [run({ shellRunId: 'sh1', stdoutTail: 'line 1\nline 2\n' })], { resync: true });
    expect(textOf(state, 'sh1')).toBe('line 1\nline 2\n');
    expect(state.runsById.sh1?.fromStart).toBe(false);
  });
});

describe('matching runs to tool calls and sessions', () => {
  it('finds a tool call’s run by turn and call id, the newest when it ran twice', () => {
    let state = applyShellRecord(
      EMPTY_SHELL,
      run({
        shellRunId: 'sh1',
        turnId: 't1',
        toolCallId: 'call-1',
        startedAt: 1000,
        status: 'orphaned',
        endedAt: 1500,
      }),
    );
    state = applyShellRecord(state, run({ shellRunId: 'sh2', turnId: 't1', toolCallId: 'call-1', startedAt: 2000 }));
    state = applyShellRecord(state, run({ shellRunId: 'sh3', turnId: 't2', toolCallId: 'call-1', startedAt: 3000 }));
    expect(shellRunIdForToolCall(state, 't1', 'call-1')).toBe('sh2');
    expect(shellRunIdForToolCall(state, 't2', 'call-1')).toBe('sh3');
    expect(shellRunIdForToolCall(state, 't3', 'call-1')).toBeUndefined();
    // An older record arriving late does not take the call over.
    state = applyShellRecord(
      state,
      run({
        shellRunId: 'sh1',
        turnId: 't1',
        toolCallId: 'call-1',
        startedAt: 1000,
        status: 'orphaned',
        endedAt: 1500,
        failureMessage: 'x',
      }),
    );
    expect(shellRunIdForToolCall(state, 't1', 'call-1')).toBe('sh2');
  });

  it('lists a session’s runs newest first and leaves runs without a tool call unmatched', () => {
    const state = applyShellList(EMPTY_SHELL, 's1', [
      run({ shellRunId: 'b', startedAt: 2000, toolCallId: null, status: 'exited', exitCode: 0, endedAt: 2100 }),
      run({ shellRunId: 'a', startedAt: 1000, status: 'exited', exitCode: 0, endedAt: 1100 }),
    ]);
    expect(sessionShellRunIds(state, 's1')).toEqual(['b', 'a']);
    expect(Object.values(state.byToolCall)).toEqual(['a']);
    const later = applyShellRecord(state, run({ shellRunId: 'c', startedAt: 3000, status: 'starting' }));
    expect(sessionShellRunIds(later, 's1')).toEqual(['c', 'b', 'a']);
  });

  it('applies shell events and forgets a removed session', () => {
    const [changed, output, removed] = events(
      { kind: 'shell.changed', shellRun: run({ shellRunId: 'sh1', status: 'starting' }) },
      { kind: 'shell.output', sessionId: 's1', shellRunId: 'sh1', stream: 'stderr', text: 'warning\n' },
      { kind: 'session.removed', sessionId: 's1' },
    );
    let state = reduceShellEvent(EMPTY_SHELL, changed!);
    state = reduceShellEvent(state, output!);
    expect(state.runsById.sh1?.chunks).toEqual([{ stream: 'stderr', text: 'warning\n' }]);
    expect(reduceShellEvent(state, removed!)).toEqual(EMPTY_SHELL);
  });

  it('lets go of the oldest finished runs beyond the limit, never a live one', () => {
    let state = applyShellRecord(EMPTY_SHELL, run({ shellRunId: 'live', startedAt: 0 }));
    for (let index = 1; index <= SHELL_RUNS_KEPT + 5; index += 1) {
      state = applyShellRecord(
        state,
        run({
          shellRunId: `done-${index}`,
          startedAt: index,
          endedAt: index + 1,
          status: 'exited',
          exitCode: 0,
          toolCallId: `call-${index}`,
        }),
      );
    }
    expect(Object.keys(state.runsById)).toHaveLength(SHELL_RUNS_KEPT);
    expect(state.runsById.live).toBeDefined();
    expect(state.runsById['done-1']).toBeUndefined();
    expect(sessionShellRunIds(state, 's1')).not.toContain('done-1');
    expect(shellRunIdForToolCall(state, 't1', 'call-1')).toBeUndefined();
  });
});
