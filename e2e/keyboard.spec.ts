import type { Page } from '@playwright/test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type CairnHost } from './fixtures';

const composer = (page: Page) => page.getByRole('textbox', { name: 'Message' });
const isComposerFocused = (page: Page) => page.evaluate(() => document.activeElement?.id === 'composer-input');

async function send(page: Page, text: string) {
  await composer(page).fill(text);
  await composer(page).press('Enter');
}

test('in a browser tab Alt+N starts a session, and the shortcuts dialog says Alt+N, not the Ctrl+N the browser keeps', async ({
  page,
  cairn,
}) => {
  await cairn.open(page);
  await expect(page.getByText('Welcome to Cairn')).toBeVisible();
  // Taller than the window (every demo directive is listed), the welcome starts at its heading, not cut above it.
  await expect(page.getByRole('heading', { name: 'Welcome to Cairn' })).toBeInViewport();
  await page.keyboard.press('Alt+n');
  await expect(page.getByTestId('session-title')).toHaveText('New session');
  await expect(composer(page)).toBeFocused();
  await expect(page.getByRole('button', { name: 'New session', exact: true })).toHaveAttribute(
    'title',
    'New session (Alt+N)',
  );

  await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  const row = help.locator('.shortcut').filter({ hasText: 'New session' });
  await expect(row.locator('kbd')).toHaveText('Alt+N');
  await expect(help).not.toContainText('Ctrl+N');
});

test('Ctrl+Shift+L with no session open starts one, and what is typed next lands in its message box', async ({
  page,
  cairn,
}) => {
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
  await card
    .getByRole('group', { name: /Checks/ })
    .getByRole('checkbox', { name: 'Lint' })
    .check();
  await card.getByRole('textbox', { name: /Anything I should keep in mind/ }).fill('Nothing');
  await card.getByRole('button', { name: 'Submit' }).click();
  await expect(page.locator('[data-testid="interaction"][data-status="answered"]')).toHaveCount(1);
  await expect.poll(() => isComposerFocused(page)).toBe(true);
});

for (const decision of ['Allow once', 'Deny'] as const) {
  test(`after ${decision} on an approval, focus returns to the message box`, async ({ page, cairn }) => {
    const workspace = mkdtempSync(join(tmpdir(), 'cairn-e2e-keyboard-'));
    try {
      await cairn.call('session.create', {
        title: 'Approvals and focus',
        workspacePath: workspace,
        permissionMode: 'ask',
      });
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

test.describe('the / menu', () => {
  let workspace: string;
  test.beforeEach(() => {
    workspace = mkdtempSync(join(tmpdir(), 'cairn-e2e-slash-'));
    for (const [id, text] of [
      [
        'release-notes',
        '---\nname: Release notes\ndescription: Writes the release notes\n---\nList the changes, newest first.\n',
      ],
      ['half-done', '---\ndescription: Has no name\n---\nNothing here.\n'],
    ] as const) {
      mkdirSync(join(workspace, '.agents', 'skills', id), { recursive: true });
      writeFileSync(join(workspace, '.agents', 'skills', id, 'SKILL.md'), text);
    }
  });
  test.afterEach(() => rmSync(workspace, { recursive: true, force: true }));

  async function openSlashSession(page: Page, cairn: CairnHost): Promise<string> {
    const { session } = await cairn.call('session.create', {
      title: 'Slash keys',
      workspacePath: workspace,
      permissionMode: 'explore',
    });
    await cairn.open(page);
    await page.getByTestId('session-row').filter({ hasText: 'Slash keys' }).click();
    return session.sessionId;
  }
  const menu = (page: Page) => page.getByRole('listbox', { name: 'Skills and directives' });
  const activeOption = (page: Page) => menu(page).locator('[role="option"][aria-selected="true"]');

  test('the first match is active, arrows move, Esc closes the menu only, and a skill with broken front matter is greyed with its reason', async ({
    page,
    cairn,
  }) => {
    const sessionId = await openSlashSession(page, cairn);
    await composer(page).fill('/');
    await expect(activeOption(page)).toContainText('/release-notes');
    await expect(composer(page)).toHaveAttribute(
      'aria-activedescendant',
      (await activeOption(page).getAttribute('id')) ?? 'missing',
    );
    const broken = menu(page).getByTestId('slash-unavailable');
    await expect(broken).toContainText('/half-done');
    await expect(broken).toContainText('The front matter needs a "name"');
    await expect(broken).toHaveAttribute('aria-disabled', 'true');

    await composer(page).press('ArrowDown');
    await expect(activeOption(page)).not.toContainText('/release-notes');
    await composer(page).press('ArrowUp');
    await expect(activeOption(page)).toContainText('/release-notes');
    await composer(page).press('ArrowUp');
    await expect(activeOption(page)).toContainText('/spawn-many');
    // Every directive of the Offline demo is offered (15, beside the two skills), and the composer says the list is open and which it is.
    await expect(menu(page).getByRole('option')).toHaveCount(15 + 2);
    const combobox = page.getByRole('combobox', { name: 'Message' });
    await expect(combobox).toHaveAttribute('aria-expanded', 'true');
    await expect(combobox).toHaveAttribute('aria-controls', (await menu(page).getAttribute('id')) ?? 'missing');

    // Closed and reopened, the menu starts again on the first match, not where it was left.
    await composer(page).fill('');
    await expect(menu(page)).toBeHidden();
    await expect(combobox).toHaveAttribute('aria-expanded', 'false');
    await composer(page).fill('/');
    await expect(activeOption(page)).toContainText('/release-notes');

    await composer(page).fill('/rel');
    await expect(activeOption(page)).toContainText('/release-notes');
    await composer(page).press('Escape');
    await expect(menu(page)).toBeHidden();
    await expect(composer(page)).toHaveValue('/rel');
    const { turns } = await cairn.call('transcript.page', { sessionId, limit: 5 });
    expect(turns).toHaveLength(0);
  });

  test('Tab chooses a skill, the person adds what it should work on, and Enter starts the turn with both recorded', async ({
    page,
    cairn,
  }) => {
    const sessionId = await openSlashSession(page, cairn);
    await composer(page).fill('/rel');
    await expect(activeOption(page)).toContainText('/release-notes');
    await composer(page).press('Tab');
    await expect(composer(page)).toHaveValue('/release-notes ');
    await expect(composer(page)).toBeFocused();
    await page.keyboard.type('since v1.2');
    await composer(page).press('Enter');

    await expect(page.locator('[data-testid="tool-call"][data-tool="load_skill"]').last()).toHaveAttribute(
      'data-status',
      'done',
    );
    await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');
    const reply = page.locator('[data-testid="message"][data-kind="assistant_message"]').last();
    await expect(reply).toContainText('Following the skill “Release notes”.');
    await expect(reply).toContainText('/release-notes since v1.2');
    const { turns } = await cairn.call('transcript.page', { sessionId, limit: 5 });
    expect(turns.map((turn) => turn.text)).toEqual(['/release-notes since v1.2']);
  });

  test('Enter on a /word that matches nothing asks before sending it as text', async ({ page, cairn }) => {
    const sessionId = await openSlashSession(page, cairn);
    await composer(page).fill('/relaese');
    await expect(menu(page)).toBeHidden();
    await composer(page).press('Enter');
    const question = page.getByTestId('slash-unknown');
    await expect(question).toContainText('/relaese is not a skill');
    await expect(composer(page)).toHaveValue('/relaese');
    expect((await cairn.call('transcript.page', { sessionId, limit: 5 })).turns).toHaveLength(0);

    await composer(page).press('Enter');
    await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');
    await expect(question).toBeHidden();
    expect((await cairn.call('transcript.page', { sessionId, limit: 5 })).turns.map((turn) => turn.text)).toEqual([
      '/relaese',
    ]);
  });
});
