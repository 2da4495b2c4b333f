import type { Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';

const composer = (page: Page) => page.getByRole('textbox', { name: 'Message' });
const isComposerFocused = (page: Page) => page.evaluate(() => document.activeElement?.id === 'composer-input');

async function send(page: Page, text: string) {
  await composer(page).fill(text);
  await composer(page).press('Enter');
}

test('in a browser tab Alt+N starts a session, and the shortcuts dialog says Alt+N, not the Ctrl+N the browser keeps', async ({ page, cairn }) => {
  await cairn.open(page);
  await expect(page.getByText('Welcome to Cairn')).toBeVisible();
  await page.keyboard.press('Alt+n');
  await expect(page.getByTestId('session-title')).toHaveText('New session');
  await expect(composer(page)).toBeFocused();
  await expect(page.getByRole('button', { name: 'New session', exact: true })).toHaveAttribute('title', 'New session (Alt+N)');

  await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  const row = help.locator('.shortcut').filter({ hasText: 'New session' });
  await expect(row.locator('kbd')).toHaveText('Alt+N');
  await expect(help).not.toContainText('Ctrl+N');
});

test('Ctrl+Shift+L with no session open starts one, and what is typed next lands in its message box', async ({ page, cairn }) => {
  await cairn.open(page);
  await expect(page.getByText('Welcome to Cairn')).toBeVisible();
  await page.keyboard.press('Control+Shift+L');
  await expect(composer(page)).toBeFocused();
  await page.keyboard.type('hello there');
  await expect(composer(page)).toHaveValue('hello there');
});

test('after Skip on a question, focus returns to the message box', async ({ page, cairn }) => {
  await cairn.open(page);
  await page.getByRole('button', { name: 'New session', exact: true }).first().click();
  await send(page, '/ask');
  const card = page.getByTestId('interaction').last();
  await expect(card).toHaveAttribute('data-status', 'pending');
  await card.getByRole('button', { name: 'Skip' }).click();
  await expect(card).toHaveAttribute('data-status', 'declined');
  await expect.poll(() => isComposerFocused(page)).toBe(true);
});

test('after Submit on a question, focus returns to the message box', async ({ page, cairn }) => {
  await cairn.open(page);
  await page.getByRole('button', { name: 'New session', exact: true }).first().click();
  await send(page, '/ask');
  const card = page.locator('[data-testid="interaction"][data-status="pending"]');
  await expect(card).toHaveCount(1);
  await card.getByRole('radio', { name: /Staging/ }).check();
  await card.getByRole('group', { name: /Checks/ }).getByRole('checkbox', { name: 'Lint' }).check();
  await card.getByRole('textbox', { name: /Anything I should keep in mind/ }).fill('Nothing');
  await card.getByRole('button', { name: 'Submit' }).click();
  await expect(page.locator('[data-testid="interaction"][data-status="answered"]')).toHaveCount(1);
  await expect.poll(() => isComposerFocused(page)).toBe(true);
});

for (const decision of ['Allow once', 'Deny'] as const) {
  test(`after ${decision} on an approval, focus returns to the message box`, async ({ page, cairn }) => {
    const workspace = mkdtempSync(join(tmpdir(), 'cairn-e2e-keyboard-'));
    try {
      await cairn.call('session.create', { title: 'Approvals and focus', workspacePath: workspace, permissionMode: 'ask' });
      await cairn.open(page);
      await page.getByTestId('session-row').filter({ hasText: 'Approvals and focus' }).click();
      await send(page, '/tool write_file {"path":"note.txt","content":"x"}');
      const approval = page.locator('[data-testid="interaction"][data-kind="permission"][data-status="pending"]');
      await expect(approval).toHaveCount(1);
      await approval.getByRole('button', { name: decision }).click();
      await expect(approval).toHaveCount(0);
      await expect.poll(() => isComposerFocused(page)).toBe(true);
    } finally {
      rmSync(workspace, { recursive: true, force: true });
    }
  });
}
