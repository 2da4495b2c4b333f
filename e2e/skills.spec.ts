import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';

let workspace: string;
test.beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'cairn-e2e-skills-'));
  mkdirSync(join(workspace, '.agents', 'skills', 'release-notes'), { recursive: true });
  writeFileSync(
    join(workspace, '.agents', 'skills', 'release-notes', 'SKILL.md'),
    '---\nname: Release notes\ndescription: Writes the release notes\nrequired-tools: [read_file]\n---\nList the changes, newest first.\n',
  );
});
test.afterEach(() => rmSync(workspace, { recursive: true, force: true }));

test('the / menu lists skills beside the demo directives, and a chosen one starts the turn with it loaded', async ({
  page,
  cairn,
}) => {
  await cairn.call('session.create', { title: 'With a skill', workspacePath: workspace, permissionMode: 'explore' });
  await cairn.open(page);
  await page.getByTestId('session-row').filter({ hasText: 'With a skill' }).click();
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill('/');
  const menu = page.getByRole('listbox', { name: 'Skills and directives' });
  await expect(menu.getByRole('option', { name: /release-notes/ })).toBeVisible();
  await expect(menu.getByRole('option', { name: /\/hold/ })).toBeVisible();
  await composer.fill('/rel');
  await expect(menu.getByRole('option', { name: /\/hold/ })).toHaveCount(0);
  // Choosing the skill leaves it in the box for what it should work on; Enter starts the turn with it.
  await menu.getByRole('option', { name: /release-notes/ }).click();
  await expect(composer).toHaveValue('/release-notes ');
  await composer.press('Enter');

  const call = page.locator('[data-testid="tool-call"][data-tool="load_skill"]').last();
  await expect(call).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');
  await expect(page.locator('[data-testid="message"][data-kind="assistant_message"]').last()).toContainText(
    'Following the skill “Release notes”.',
  );
  await expect(composer).toHaveValue('');
});
