import { expect, test } from './fixtures';

test('a follow-up sent while a turn runs is shown queued, then runs', async ({ page, cairn }) => {
  await cairn.open(page);
  await page.getByRole('button', { name: 'New session', exact: true }).first().click();
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill('/stream 40 50');
  await composer.press('Enter');
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'running');
  await composer.fill('and then summarise it');
  await composer.press('Enter');
  const queued = page.getByTestId('queued-message');
  await expect(queued).toHaveCount(1);
  await expect(queued).toContainText('and then summarise it');
  await expect(queued).toHaveCount(0, { timeout: 20_000 });
  await expect(page.locator('[data-kind="user_message"]').last()).toContainText('and then summarise it');
  await expect(page.locator('[data-kind="assistant_message"]').last()).toContainText('and then summarise it');
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');
});
