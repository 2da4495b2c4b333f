import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDataDir } from '../testing/host-fixture';
import { openDatabase, type Db } from './database';
import { MIGRATIONS } from './migrations';
import { createShellRunStore, type NewShellRun, type ShellRunStore } from './shell-run-store';

const NO_OUTPUT = { stdoutTail: '', stderrTail: '', stdoutTruncated: false, stderrTruncated: false };

describe('shell run store', () => {
  let db: Db;
  let store: ShellRunStore;
  let cleanup: () => void;

  beforeEach(() => {
    const temp = tempDataDir();
    cleanup = temp.cleanup;
    db = openDatabase(temp.dir, { migrations: MIGRATIONS });
    const session = db.prepare(
      "INSERT INTO sessions (session_id, title, title_source, connection_id, permission_mode, revision, created_at, updated_at) VALUES (?, 'T', 'user', 'c', 'ask', 1, 0, 0)",
    );
    session.run('s1');
    session.run('s2');
    store = createShellRunStore(db);
  });
  afterEach(() => {
    db.close();
    cleanup();
  });

  const newRun = (shellRunId: string, overrides: Partial<NewShellRun> = {}): NewShellRun => ({
    shellRunId,
    sessionId: 's1',
    turnId: 't1',
    runId: 'r1',
    toolCallId: 'call-1',
    command: 'echo \'hi\'; rm -rf "$TMP"',
    cwd: '/work/space',
    now: 1000,
    ...overrides,
  });

  it('inserts a run as starting, with the command bound verbatim', () => {
    const run = store.insert(newRun('sh1'));
    expect(run).toEqual({
      shellRunId: 'sh1',
      sessionId: 's1',
      turnId: 't1',
      runId: 'r1',
      toolCallId: 'call-1',
      command: 'echo \'hi\'; rm -rf "$TMP"',
      cwd: '/work/space',
      status: 'starting',
      exitCode: null,
      signal: null,
      pid: null,
      startedAt: 1000,
      endedAt: null,
      stdoutTail: '',
      stderrTail: '',
      stdoutTruncated: false,
      stderrTruncated: false,
      failureMessage: null,
    });
    expect(store.get('sh1')).toEqual(run);
    expect(store.get('missing')).toBeNull();
    expect(store.insert(newRun('sh2', { toolCallId: null })).toolCallId).toBeNull();
  });

  it('moves starting → running → exited, saving tails along the way', () => {
    store.insert(newRun('sh1'));
    expect(store.markRunning('sh1', 4242)).toMatchObject({ status: 'running', pid: 4242 });
    expect(store.recordOutput('sh1', { ...NO_OUTPUT, stdoutTail: 'partial', stdoutTruncated: true })).toMatchObject({
      stdoutTail: 'partial',
      stdoutTruncated: true,
    });
    const ended = store.finish('sh1', {
      status: 'exited',
      exitCode: 2,
      signal: null,
      failureMessage: null,
      now: 1500,
      stdoutTail: 'out',
      stderrTail: 'err',
      stdoutTruncated: true,
      stderrTruncated: false,
    });
    expect(ended).toMatchObject({
      status: 'exited',
      exitCode: 2,
      endedAt: 1500,
      stdoutTail: 'out',
      stderrTail: 'err',
      stdoutTruncated: true,
    });
  });

  it('treats a final row as history: further changes throw', () => {
    store.insert(newRun('sh1'));
    store.markRunning('sh1', 1);
    store.finish('sh1', {
      ...NO_OUTPUT,
      status: 'killed',
      exitCode: null,
      signal: 'SIGTERM',
      failureMessage: null,
      now: 2,
    });
    expect(() => store.markRunning('sh1', 2)).toThrow(/cannot start running: it is killed/);
    expect(() => store.recordOutput('sh1', NO_OUTPUT)).toThrow(/it is killed/);
    expect(() =>
      store.finish('sh1', { ...NO_OUTPUT, status: 'exited', exitCode: 0, signal: null, failureMessage: null, now: 3 }),
    ).toThrow(/cannot end as exited/);
    expect(() => store.markRunning('nope', 1)).toThrow(/does not exist/);
  });

  it('lists a session’s runs newest first, with a limit', () => {
    store.insert(newRun('a', { now: 1 }));
    store.insert(newRun('b', { now: 3 }));
    store.insert(newRun('c', { now: 2 }));
    store.insert(newRun('other', { sessionId: 's2', now: 4 }));
    expect(store.listBySession('s1').map((run) => run.shellRunId)).toEqual(['b', 'c', 'a']);
    expect(store.listBySession('s1', { limit: 1 }).map((run) => run.shellRunId)).toEqual(['b']);
    expect(store.listBySession('s2').map((run) => run.shellRunId)).toEqual(['other']);
  });

  it('lists live runs with their start identity and marks each orphaned with its own message; only orphans take a note', () => {
    store.insert(newRun('starting'));
    store.insert(newRun('running'));
    store.markRunning('running', 77, 'linux:boot:123');
    store.insert(newRun('done'));
    store.finish('done', { ...NO_OUTPUT, status: 'exited', exitCode: 0, signal: null, failureMessage: null, now: 5 });

    expect(store.live().map(({ run, processStart }) => [run.shellRunId, processStart])).toEqual([
      ['running', 'linux:boot:123'],
      ['starting', null],
    ]);
    expect(store.processStart('running')).toBe('linux:boot:123');
    expect(store.markOrphaned('running', 'stopped it', 9000)).toMatchObject({
      status: 'orphaned',
      failureMessage: 'stopped it',
      endedAt: 9000,
      pid: 77,
    });
    expect(store.markOrphaned('starting', 'never ran', 9000)).toMatchObject({
      status: 'orphaned',
      failureMessage: 'never ran',
    });
    expect(() => store.markOrphaned('done', 'x', 9001)).toThrow(/cannot become orphaned: it is exited/);
    expect(store.live()).toEqual([]);
    expect(store.noteOrphan('running', 'you stopped it')).toMatchObject({
      status: 'orphaned',
      failureMessage: 'you stopped it',
    });
    expect(() => store.noteOrphan('done', 'x')).toThrow(/cannot take a note/);
  });
});
