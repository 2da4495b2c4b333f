import type { Page } from '@playwright/test';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type CairnHost } from './fixtures';

let workspace: string;
test.beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'cairn-e2e-approvals-'));
});
test.afterEach(() => rmSync(workspace, { recursive: true, force: true }));

async function openAskSession(page: Page, cairn: CairnHost, title: string): Promise<string> {
  const { session } = await cairn.call('session.create', { title, workspacePath: workspace, permissionMode: 'ask' });
  await cairn.open(page);
  await page.getByTestId('session-row').filter({ hasText: title }).click();
  await expect(page.getByTestId('permission-mode')).toHaveAttribute('data-mode', 'ask');
  return session.sessionId;
}

const composer = (page: Page) => page.getByRole('textbox', { name: 'Message' });
const approvalCard = (page: Page) => page.locator('[data-testid="interaction"][data-kind="permission"]').last();

test('an approval never takes focus: Space and Enter, typed or stray, approve nothing', async ({ page, cairn }) => {
  const sessionId = await openAskSession(page, cairn, 'Stray keys');
  await composer(page).fill('/tool write_file {"path":"stray.txt","content":"should not be written"}');
  await composer(page).press('Enter');
  const approval = approvalCard(page);
  await expect(approval).toHaveAttribute('data-status', 'pending');
  await expect(approval.getByRole('button', { name: 'Allow once' })).toBeVisible();
  // The change shows the file once and its lines, without the raw diff header.
  const diff = approval.getByTestId('tool-diff');
  await expect(diff).toContainText('+should not be written');
  await expect(diff).not.toContainText('+++');
  await expect(diff).not.toContainText('/dev/null');
  await expect(diff).not.toContainText('=====');

  // The composer is empty: a stray Space and Enter land there (Enter with an empty draft sends nothing).
  await page.keyboard.press('Space');
  await page.keyboard.press('Enter');
  await expect(approval).toHaveAttribute('data-status', 'pending');
  expect(existsSync(join(workspace, 'stray.txt'))).toBe(false);
  await expect(composer(page)).toBeFocused();
  await page.keyboard.press('Backspace');
  // Nothing focused at all (a click on empty space): the keys still decide nothing.
  await page.getByTestId('session-title').click();
  await page.keyboard.press('Space');
  await page.keyboard.press('Enter');
  // Typing in the composer: the keys are text.
  await composer(page).click();
  await page.keyboard.type('notes for later ');
  await expect(composer(page)).toHaveValue('notes for later ');

  await expect(approval).toHaveAttribute('data-status', 'pending');
  const { interactions } = await cairn.call('interaction.list', { sessionId, status: 'pending' });
  expect(interactions).toHaveLength(1);
  expect(existsSync(join(workspace, 'stray.txt'))).toBe(false);

  // The deliberate act still works.
  await approval.getByRole('button', { name: 'Allow once' }).click();
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');
  expect(readFileSync(join(workspace, 'stray.txt'), 'utf8')).toBe('should not be written');
});

test('"Allow for this session" shows as a grant that can be revoked; then the tool asks again', async ({
  page,
  cairn,
}) => {
  const sessionId = await openAskSession(page, cairn, 'Grants');
  await composer(page).fill('/tool write_file {"path":"a.txt","content":"first"}');
  await composer(page).press('Enter');
  await approvalCard(page).getByRole('button', { name: 'Allow for this session' }).click();
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');

  const grant = page.getByTestId('grant');
  await expect(grant).toHaveCount(1);
  await expect(grant).toHaveAttribute('data-tool', 'write_file');
  await expect(page.getByTestId('grants')).toContainText('Allowed without asking in this session:');
  await expect(grant).toContainText('write any file in the folder');

  await grant.getByRole('button', { name: /Revoke write_file/ }).click();
  await expect(page.getByTestId('grants')).toHaveCount(0);
  expect((await cairn.call('permission.grants.list', { sessionId })).grants).toEqual([]);

  await composer(page).fill('/tool write_file {"path":"a.txt","content":"second"}');
  await composer(page).press('Enter');
  await expect(approvalCard(page)).toHaveAttribute('data-status', 'pending');
  expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('first');
});

test('switching a session to Full asks first; Keep asking leaves it in Ask', async ({ page, cairn }) => {
  const sessionId = await openAskSession(page, cairn, 'Confirm Full');
  const modes = page.getByTestId('permission-mode');
  await modes.getByRole('radio', { name: /Full/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Let the agent run everything without asking?' });
  await expect(dialog).toContainText(workspace);
  await expect(dialog.getByRole('button', { name: 'Keep asking' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Keep asking' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(modes).toHaveAttribute('data-mode', 'ask');
  expect((await cairn.call('session.get', { sessionId })).session.permissionMode).toBe('ask');

  await modes.getByRole('radio', { name: /Full/ }).click();
  await dialog.getByRole('button', { name: 'Switch to Full' }).click();
  await expect(modes).toHaveAttribute('data-mode', 'full');
  expect((await cairn.call('session.get', { sessionId })).session.permissionMode).toBe('full');
});
