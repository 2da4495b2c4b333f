import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestHost, tempDataDir, type TestHost } from '../testing/host-fixture';
import { waitFor } from '../testing/wait-for';
import { ABSENT_NOTE } from '../runtime/checkpoints/checkpoint-recorder';
import { testProgramArgs } from '../testing/test-programs';

const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Runs the crash child to its SIGKILL; resolves with how it ended and what it printed. */
function crashAt(
  dataDir: string,
  workspace: string,
  point: 'commit_written' | 'turn_wrote',
): Promise<{ signal: string | null; output: string }> {
  const child = spawn(
    process.execPath,
    [...testProgramArgs('src-main/testing/checkpoint-crash-child.ts'), dataDir, workspace, point],
    {
      cwd: PROJECT_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolveEnd) => child.once('exit', (_code, signal) => resolveEnd({ signal, output })));
}

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function setup(): { dataDir: string; workspace: string } {
  const data = tempDataDir();
  const workspace = mkdtempSync(join(tmpdir(), 'cairn-crash-ws-'));
  writeFileSync(join(workspace, 'keep.txt'), 'keep\n');
  cleanups.push(data.cleanup, () => rmSync(workspace, { recursive: true, force: true }));
  return { dataDir: data.dir, workspace };
}

async function reopen(dataDir: string): Promise<{ t: TestHost; sessionId: string }> {
  const t = await startTestHost({ dataDir });
  cleanups.push(() => t.close());
  const sessionId = (await t.call('session.list', {})).sessions[0]?.sessionId ?? '';
  return { t, sessionId };
}

describe('a host killed during a file checkpoint', () => {
  it(
    'between the commit object and its ref: the checkpoint is absent, and recovery says so',
    { timeout: 120_000 },
    async () => {
      const { dataDir, workspace } = setup();
      const crash = await crashAt(dataDir, workspace, 'commit_written');
      expect(crash).toMatchObject({ signal: 'SIGKILL' });
      // The commit object was written but no ref names it, and the write never ran.
      const [shadow] = readdirSync(join(dataDir, 'checkpoints'));
      expect(existsSync(join(dataDir, 'checkpoints', shadow ?? '', 'refs', 'cairn'))).toBe(false);
      expect(existsSync(join(workspace, 'a.txt'))).toBe(false);
      const { t, sessionId } = await reopen(dataDir);
      const [changeSet] = await waitFor(
        async () => {
          const { changeSets } = await t.call('changes.list', { sessionId });
          return changeSets.every((set) => set.status === 'absent') && changeSets.length > 0 ? changeSets : null;
        },
        { timeoutMs: 30_000, message: 'the change set to be marked absent' },
      );
      expect(changeSet).toMatchObject({ status: 'absent', note: ABSENT_NOTE, files: [] });
      const revert = await t.invoke('changes.revert', { sessionId, changeSetId: changeSet?.changeSetId ?? '' });
      expect(revert.ok ? null : revert.error).toMatchObject({ code: 'operation_unavailable', message: ABSENT_NOTE });
    },
  );

  it(
    'after the checkpoint and a write: the checkpoint is complete, recovery records the change, and it reverts',
    { timeout: 120_000 },
    async () => {
      const { dataDir, workspace } = setup();
      expect(await crashAt(dataDir, workspace, 'turn_wrote')).toMatchObject({ signal: 'SIGKILL' });
      expect(existsSync(join(workspace, 'a.txt'))).toBe(true);
      const { t, sessionId } = await reopen(dataDir);
      const [changeSet] = await waitFor(
        async () => {
          const { changeSets } = await t.call('changes.list', { sessionId });
          return changeSets.length > 0 && changeSets.every((set) => set.status === 'complete') ? changeSets : null;
        },
        { timeoutMs: 30_000, message: 'the change set to be completed' },
      );
      expect(changeSet?.note).toMatch(/the checkpoint before it was complete/);
      expect(changeSet?.files.map((file) => [file.path, file.change, changeSet.writers[file.writer]?.kind])).toEqual([
        ['a.txt', 'created', 'unknown'],
      ]);
      expect((await t.call('changes.revert', { sessionId, changeSetId: changeSet?.changeSetId ?? '' })).status).toBe(
        'reverted',
      );
      expect(existsSync(join(workspace, 'a.txt'))).toBe(false);
      expect(existsSync(join(workspace, 'keep.txt'))).toBe(true);
    },
  );
});
