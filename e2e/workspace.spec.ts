import type { Page } from '@playwright/test';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PermissionMode } from '../src-shared/model';
import { expect, test, type CairnHost } from './fixtures';

let workspace: string;
test.beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'cairn-e2e-workspace-'));
  writeFileSync(join(workspace, 'notes.md'), 'line one\nline two\n');
});
test.afterEach(() => rmSync(workspace, { recursive: true, force: true }));

/** A session on the temp workspace in `mode`, opened in the page. */
async function openSession(
  page: Page,
  cairn: CairnHost,
  title: string,
  permissionMode: PermissionMode,
): Promise<string> {
  const { session } = await cairn.call('session.create', { title, workspacePath: workspace, permissionMode });
  await cairn.open(page);
  await page.getByTestId('session-row').filter({ hasText: title }).click();
  await expect(page.getByTestId('session-title')).toHaveText(title);
  await expect(page.getByTestId('permission-mode')).toHaveAttribute('data-mode', permissionMode);
  await expect(page.getByTestId('workspace-path')).toHaveText(workspace);
  return session.sessionId;
}

async function send(page: Page, text: string): Promise<void> {
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill(text);
  await composer.press('Enter');
}

const lastReply = (page: Page) => page.locator('[data-testid="message"][data-kind="assistant_message"]').last();

test('Ask mode: an edit waits for approval with its diff, and Allow once changes the file', async ({ page, cairn }) => {
  await openSession(page, cairn, 'Edit with approval', 'ask');
  await expect(page.getByTestId('sandbox-note')).toContainText(
    'Shell commands are not sandboxed: an allowed command runs with your rights.',
  );

  await send(page, '/tool edit_file {"path":"notes.md","search":"line two","replace":"line 2"}');
  const approval = page.locator('[data-testid="interaction"][data-kind="permission"]').last();
  await expect(approval).toHaveAttribute('data-status', 'pending');
  await expect(approval).toContainText('-line two');
  await expect(approval).toContainText('+line 2');
  expect(readFileSync(join(workspace, 'notes.md'), 'utf8')).toBe('line one\nline two\n');

  await approval.getByRole('button', { name: 'Allow once' }).click();
  const call = page.locator('[data-testid="tool-call"][data-tool="edit_file"]').last();
  await expect(call).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');
  expect(readFileSync(join(workspace, 'notes.md'), 'utf8')).toBe('line one\nline 2\n');

  // The call's line opens to its change as a diff, and its arguments and result.
  await call.getByRole('button', { name: /edit_file/ }).click();
  await expect(call.getByTestId('tool-diff')).toContainText('-line two');
  await expect(call.getByTestId('tool-diff')).toContainText('+line 2');
  await expect(call).toContainText('replaced');
});

test('Ask mode: a denied command does not run, and the transcript says it was not allowed', async ({ page, cairn }) => {
  await openSession(page, cairn, 'Deny a command', 'ask');
  await send(page, '/tool run_shell {"command":"touch denied.txt"}');
  const approval = page.locator('[data-testid="interaction"][data-kind="permission"]').last();
  await expect(approval).toContainText('touch denied.txt');
  await approval.getByRole('button', { name: 'Deny' }).click();

  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');
  await expect(lastReply(page)).toContainText('You did not allow that, so I did not run it.');
  await expect(approval).not.toHaveAttribute('data-status', 'pending');
  await expect(page.getByTestId('shell-run')).toHaveCount(0);
  expect(existsSync(join(workspace, 'denied.txt'))).toBe(false);
});

test('Full mode: a long command streams into its terminal, and Stop kills it', async ({ page, cairn }) => {
  await openSession(page, cairn, 'Stream a command', 'full');
  await expect(page.getByTestId('sandbox-note')).toContainText('Full access');

  // It runs until stopped, so the journey never races the command's own end on a loaded machine.
  await send(page, '/tool run_shell {"command":"i=0; while true; do i=$((i+1)); echo line $i; sleep 0.05; done"}');
  const panel = page.getByTestId('shell-run').last();
  const output = panel.getByTestId('shell-output');
  await expect(output).toContainText('line 3');
  await expect(panel).toHaveAttribute('data-status', 'running');
  await expect(panel).toContainText(workspace);
  // The output keeps growing while it runs.
  await expect(output).toContainText('line 25');
  await expect(page.getByTestId('commands-button')).toContainText('1 running');

  await panel.getByRole('button', { name: 'Stop command' }).click();
  await expect(panel).toHaveAttribute('data-status', 'killed');
  await expect(panel.getByTestId('shell-status')).toHaveText('Stopped');
  await expect(panel.getByRole('button', { name: 'Stop command' })).toHaveCount(0);
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');

  // The session's Commands list has it, stopped.
  await page.getByTestId('commands-button').click();
  const row = page.getByTestId('commands-panel').getByTestId('command-row').first();
  await expect(row).toHaveAttribute('data-status', 'killed');
  await expect(row).toContainText('while true; do i=$((i+1))');

  const artifacts = join(process.cwd(), 'e2e-artifacts');
  mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: join(artifacts, 'workspace-commands.png') });
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('commands-panel')).toHaveCount(0);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: join(artifacts, 'workspace-shell-dark.png') });
});

test('Explore mode chosen in the header leaves the agent without tools that change things', async ({ page, cairn }) => {
  const sessionId = await openSession(page, cairn, 'Switch to explore', 'full');
  await page
    .getByTestId('permission-mode')
    .getByRole('radio', { name: /Explore/ })
    .click();
  await expect(page.getByTestId('permission-mode')).toHaveAttribute('data-mode', 'explore');
  await expect(page.getByTestId('sandbox-note')).toHaveCount(0);
  expect((await cairn.call('session.get', { sessionId })).session.permissionMode).toBe('explore');

  await send(page, '/tool write_file {"path":"x.txt","content":"no"}');
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');
  await expect(lastReply(page)).toContainText('There is no tool named \\"write_file\\" here');
  await expect(page.locator('[data-testid="tool-call"][data-tool="write_file"]').last()).toHaveAttribute(
    'data-status',
    'failed',
  );
  expect(existsSync(join(workspace, 'x.txt'))).toBe(false);

  // The folder is checked by the host; its refusal shows next to the field.
  await page.getByRole('button', { name: 'Change workspace folder' }).click();
  const field = page.getByRole('textbox', { name: 'Workspace folder' });
  await field.fill(join(workspace, 'no-such-folder'));
  await field.press('Enter');
  await expect(page.getByTestId('workspace-error')).toContainText('does not exist');

  // Browse… in a browser: the host lists its folders. A path that is not there starts at home, saying so.
  mkdirSync(join(workspace, 'sub', 'deeper'), { recursive: true });
  mkdirSync(join(workspace, '.cache'));
  await page.getByRole('button', { name: 'Browse…' }).click();
  let browser = page.getByRole('dialog', { name: 'Choose a workspace folder' });
  await expect(browser.getByTestId('folder-browser-error')).toHaveText(
    `There is no folder ${join(workspace, 'no-such-folder')} on the host.`,
  );
  await expect(browser.getByTestId('folder-browser-path')).toHaveText(homedir());
  await browser.getByRole('button', { name: 'Cancel' }).click();
  await expect(browser).toHaveCount(0);
  await field.fill(workspace);
  await page.getByRole('button', { name: 'Browse…' }).click();
  browser = page.getByRole('dialog', { name: 'Choose a workspace folder' });
  await expect(browser.getByTestId('folder-browser-path')).toHaveText(workspace);
  const folders = browser.getByRole('list', { name: 'Folders' });
  await expect(folders.getByRole('button')).toHaveText(['Home', 'sub']);
  await browser.getByRole('checkbox', { name: 'Show hidden folders (1)' }).check();
  await expect(folders.getByRole('button')).toHaveText(['Home', '.cache', 'sub']);
  await folders.getByRole('button', { name: 'sub' }).click();
  await expect(browser.getByTestId('folder-browser-path')).toHaveText(join(workspace, 'sub'));
  await expect(folders.getByRole('button')).toHaveText(['Home', 'deeper']);
  await browser.getByRole('button', { name: 'Up one folder' }).click();
  await expect(browser.getByTestId('folder-browser-path')).toHaveText(workspace);
  await folders.getByRole('button', { name: 'sub' }).click();
  await expect(browser.getByTestId('folder-browser-path')).toHaveText(join(workspace, 'sub'));
  await browser.getByRole('button', { name: 'Choose this folder' }).click();
  await expect(page.getByTestId('workspace-path')).toHaveText(join(workspace, 'sub'));
  expect((await cairn.call('session.get', { sessionId })).session.workspacePath).toBe(join(workspace, 'sub'));
});
