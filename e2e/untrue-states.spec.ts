import type { Locator, Page } from '@playwright/test';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from './fixtures';

const artifacts = join(process.cwd(), 'e2e-artifacts');
const NOTES_SERVER = fileURLToPath(new URL('../src-main/testing/mcp-servers/stdio-test-server.ts', import.meta.url));

/** Screenshots of the view at both widths the issue names, light and dark. */
async function shoot(page: Page, name: string, subject: Locator): Promise<void> {
  mkdirSync(artifacts, { recursive: true });
  for (const width of [900, 1280]) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height: width === 900 ? 700 : 800 });
      await page.emulateMedia({ colorScheme: scheme });
      await subject.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(artifacts, `${name}-${width}-${scheme}.png`) });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

let workspace: string;
test.beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'cairn-e2e-untrue-'));
});
test.afterEach(() => rmSync(workspace, { recursive: true, force: true }));

const openRow = (page: Page, title: string) =>
  page.getByTestId('session-row').filter({ hasText: title }).locator('.session-row-main').click();

test('the unsandboxed-shell note shows only in Ask or Full with a folder, once, and closes for that session', async ({
  page,
  cairn,
}) => {
  test.slow(); // eight screenshots
  await cairn.call('session.create', { title: 'No folder', permissionMode: 'ask' });
  await cairn.call('session.create', { title: 'Folder explore', permissionMode: 'explore', workspacePath: workspace });
  await cairn.call('session.create', { title: 'Folder ask', permissionMode: 'ask', workspacePath: workspace });
  await cairn.open(page);

  await openRow(page, 'No folder');
  await expect(page.getByTestId('session-title')).toHaveText('No folder');
  await expect(page.getByTestId('workspace-bar')).toBeVisible();
  await expect(page.getByTestId('sandbox-note')).toHaveCount(0);

  await openRow(page, 'Folder explore');
  await expect(page.getByTestId('session-title')).toHaveText('Folder explore');
  await expect(page.getByTestId('sandbox-note')).toHaveCount(0);

  await openRow(page, 'Folder ask');
  const note = page.getByTestId('sandbox-note');
  await expect(note).toHaveCount(1);
  await expect(note).toContainText('Shell commands are not sandboxed');
  await expect(page.getByText('Shell commands are not sandboxed', { exact: false })).toHaveCount(1);
  await shoot(page, 'sandbox-note', note);
  await note.getByRole('button', { name: 'Close this note for this session' }).click();
  await expect(note).toHaveCount(0);

  // Closed for this session, across a reload; another session with a folder still says it.
  await page.reload();
  await openRow(page, 'Folder ask');
  await expect(page.getByTestId('session-title')).toHaveText('Folder ask');
  await expect(page.getByTestId('workspace-bar')).toBeVisible();
  await expect(note).toHaveCount(0);
  await cairn.call('session.create', { title: 'Folder ask too', permissionMode: 'ask', workspacePath: workspace });
  await openRow(page, 'Folder ask too');
  await expect(note).toContainText('Shell commands are not sandboxed');
});

test('the composer’s MCP menu is offered in a built-in agent’s session, not in a Codex session', async ({
  page,
  cairn,
}) => {
  await cairn.call('mcp.server.create', {
    name: 'Notes',
    transport: 'stdio',
    command: process.execPath,
    args: ['--import', 'tsx', NOTES_SERVER],
  });
  const { connection } = await cairn.call('connection.create', {
    name: 'Codex',
    providerType: 'codex',
    baseUrl: 'http://127.0.0.1:9/v1',
  });
  await cairn.call('session.create', { title: 'Demo chat' });
  await cairn.call('session.create', { title: 'Codex chat', connectionId: connection.connectionId });
  await cairn.open(page);

  await openRow(page, 'Demo chat');
  await expect(page.getByRole('button', { name: 'MCP', exact: true })).toBeVisible();
  await openRow(page, 'Codex chat');
  await expect(page.getByTestId('session-title')).toHaveText('Codex chat');
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'MCP', exact: true })).toHaveCount(0);
});
