import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from './fixtures';

/**
 * For an ACP spec: a workspace folder and the test agent's state folder, made fresh before each of its
 * tests and removed after. Read the fields inside a test (they are set by then).
 */
export function freshAcpFolders(): { readonly workspace: string; readonly agentState: string } {
  const folders = { workspace: '', agentState: '' };
  test.beforeEach(() => {
    folders.workspace = mkdtempSync(join(tmpdir(), 'cairn-e2e-acp-'));
    folders.agentState = mkdtempSync(join(tmpdir(), 'cairn-e2e-acp-agent-'));
  });
  test.afterEach(() => {
    rmSync(folders.workspace, { recursive: true, force: true });
    rmSync(folders.agentState, { recursive: true, force: true });
  });
  return folders;
}
