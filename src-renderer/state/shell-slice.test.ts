import { describe, expect, it, vi } from 'vitest';
import type { ShellRunRecord } from '../../src-shared/shell-run-model';
import { shellRunIdForToolCall } from './reducers/shell-reducer';
import { setupStore } from './test-store';

function run(overrides: Partial<ShellRunRecord> & { shellRunId: string }): ShellRunRecord {
  return {
    sessionId: 's1',
    turnId: 't1',
    runId: 'r1',
    toolCallId: 'call-1',
    command: 'for i in 1 2 3; do echo line $i; done',
    cwd: '/work',
    status: 'running',
    exitCode: null,
    signal: null,
    pid: 9,
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

describe('the shell slice', () => {
  it('follows a command from its events: status, live output, and the tool call it belongs to', () => {
    const { store, link, frames } = setupStore();
    link.push({ kind: 'shell.changed', shellRun: run({ shellRunId: 'sh1', status: 'starting', pid: null }) });
    link.push({ kind: 'shell.output', sessionId: 's1', shellRunId: 'sh1', stream: 'stdout', text: 'line 1\n' });
    link.push({ kind: 'shell.output', sessionId: 's1', shellRunId: 'sh1', stream: 'stdout', text: 'line 2\n' });
    frames.flush();
    const state = store.getState().shell;
    expect(shellRunIdForToolCall(state, 't1', 'call-1')).toBe('sh1');
    expect(state.runsById.sh1?.chunks).toEqual([{ stream: 'stdout', text: 'line 1\nline 2\n' }]);
    link.push({
      kind: 'shell.changed',
      shellRun: run({
        shellRunId: 'sh1',
        status: 'exited',
        exitCode: 0,
        endedAt: 2000,
        stdoutTail: 'line 1\nline 2\n',
      }),
    });
    frames.flush();
    expect(store.getState().shell.runsById.sh1?.record?.status).toBe('exited');
  });

  it('reads a session’s commands once per connection, and again with their tails after a reconnect', async () => {
    const { store, link } = setupStore();
    link.answer('shell.list', () => ({
      ok: true,
      result: { shellRuns: [run({ shellRunId: 'sh1', stdoutTail: 'line 1\n' })] },
    }));
    store.getState().ensureShellRuns('s1');
    store.getState().ensureShellRuns('s1');
    await vi.waitFor(() => expect(store.getState().shellLists.s1).toBe('ready'));
    expect(link.callsOf('shell.list')).toEqual([{ sessionId: 's1', limit: 100 }]);
    expect(store.getState().shell.idsBySession.s1).toEqual(['sh1']);

    link.answer('shell.list', () => ({
      ok: true,
      result: { shellRuns: [run({ shellRunId: 'sh1', stdoutTail: 'line 1\nline 2\n' })] },
    }));
    link.setConnection({ status: 'open', hostEpoch: 'epoch-1', generation: 2, problem: null });
    store.getState().ensureShellRuns('s1');
    await vi.waitFor(() => expect(link.callsOf('shell.list')).toHaveLength(2));
    await vi.waitFor(() => expect(store.getState().shell.runsById.sh1?.chunks[0]?.text).toBe('line 1\nline 2\n'));
  });

  it('stops a command and shows what the host says; a refusal becomes a toast', async () => {
    const { store, link } = setupStore();
    link.answer('shell.kill', ({ shellRunId }) => ({
      ok: true,
      result: { killed: true, shellRun: run({ shellRunId, status: 'killed', signal: 'SIGTERM', endedAt: 1500 }) },
    }));
    await store.getState().killShellRun('sh1');
    expect(link.callsOf('shell.kill')).toEqual([{ shellRunId: 'sh1' }]);
    expect(store.getState().shell.runsById.sh1?.record?.status).toBe('killed');

    link.answer('shell.kill', () => ({
      ok: false,
      error: { code: 'not_found', message: 'That command does not exist.' },
    }));
    await store.getState().killShellRun('gone');
    expect(store.getState().toasts.map((toast) => toast.message)).toContain('That command does not exist.');
  });

  it('reads one command a tool result names', async () => {
    const { store, link } = setupStore();
    link.answer('shell.get', ({ shellRunId }) => ({
      ok: true,
      result: {
        shellRun: run({
          shellRunId,
          status: 'orphaned',
          failureMessage: 'The app restarted without a live handle to this process',
        }),
      },
    }));
    await store.getState().loadShellRun('sh9');
    expect(store.getState().shell.runsById.sh9?.record?.status).toBe('orphaned');
  });
});
