import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { withRawDatabase } from '../../../storage/testing/raw-database';
import { testAgentCommand } from '../../../testing/acp-test-agent-launch';
import { startTestHost, tempDataDir } from '../../../testing/host-fixture';

const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('a host closed while a native turn’s checkpoint is being written', { timeout: 60_000 }, () => {
  it('waits for the checkpoint before closing its database: the change set is recorded, never left pending', async () => {
    const data = tempDataDir();
    cleanups.push(data.cleanup);
    const workspace = tempDir('cairn-acp-shutdown-ws-');
    writeFileSync(join(workspace, 'keep.txt'), 'keep\n');
    const t = await startTestHost({ dataDir: data.dir });
    const { connection } = await t.call('connection.create', {
      name: 'Test agent',
      providerType: 'acp',
      acpAgent: testAgentCommand(tempDir('cairn-acp-shutdown-agent-')),
    });
    const { session } = await t.call('session.create', {
      connectionId: connection.connectionId,
      permissionMode: 'ask',
      workspacePath: workspace,
    });
    await t.call('turn.start', { sessionId: session.sessionId, turnId: 't1', text: 'text Herons.' });
    // The turn's start began the checkpoint before it in the background; close at once, while it runs.
    await t.close();
    const rows = withRawDatabase(data.dir, (db) =>
      db.prepare('SELECT status FROM change_sets WHERE session_id = ?').all(session.sessionId),
    );
    expect(rows).toEqual([{ status: 'complete' }]);
  });
});
