import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';

let workspace: string;
test.beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'cairn-e2e-queue-'));
});
test.afterEach(() => rmSync(workspace, { recursive: true, force: true }));

test('a follow-up sent while a turn runs is shown queued, can be edited or removed, then runs', async ({
  page,
  cairn,
}) => {
  await cairn.call('session.create', { title: 'Queue', workspacePath: workspace, permissionMode: 'full' });
  await cairn.open(page);
  await page.getByTestId('session-row').filter({ hasText: 'Queue' }).click();
  const composer = page.getByRole('textbox', { name: 'Message' });
  // The first turn runs until the test lets it end (its command waits for a file), so the follow-up
  // is sent while it runs however slow the machine is, not within a stream's few seconds.
  await composer.fill('/tool run_shell {"command":"until [ -e go ]; do sleep 0.05; done"}');
  await composer.press('Enter');
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'running');
  await composer.fill('and then summarise it');
  await composer.press('Enter');
  const queued = page.getByTestId('queued-message');
  await expect(queued).toHaveCount(1);
  await expect(queued).toContainText('and then summarise it');

  // A queued follow-up can be edited and removed until it starts.
  await composer.fill('and delete the logs');
  await composer.press('Enter');
  await expect(queued).toHaveCount(2);
  await queued.first().getByRole('button', { name: 'Edit queued follow-up' }).click();
  const field = queued.first().getByRole('textbox', { name: 'Queued follow-up' });
  await expect(field).toBeFocused();
  await field.fill('and then summarise it in one line');
  await field.press('Enter');
  await expect(queued.first()).toContainText('and then summarise it in one line');
  await queued.last().getByRole('button', { name: 'Remove queued follow-up' }).click();
  await expect(queued).toHaveCount(1);

  writeFileSync(join(workspace, 'go'), '');
  await expect(queued).toHaveCount(0);
  await expect(page.locator('[data-kind="user_message"]').last()).toContainText('and then summarise it in one line');
  await expect(page.locator('[data-kind="assistant_message"]').last()).toContainText(
    'and then summarise it in one line',
  );
  await expect(page.locator('[data-kind="user_message"]').filter({ hasText: 'and delete the logs' })).toHaveCount(0);
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');
});
