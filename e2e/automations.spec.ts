import { expect, test } from './fixtures';

test('create a daily task, see its next runs, Run now, and find the result in its history', async ({ page, cairn }) => {
  await cairn.open(page);
  await page.getByTestId('automations-entry').click();
  await page.getByRole('button', { name: 'New task' }).click();
  const form = page.getByRole('form', { name: 'New scheduled task' });
  await form.getByRole('textbox', { name: 'Title' }).fill('Morning issues');
  await form.getByRole('textbox', { name: 'What to do' }).fill('Summarise the new issues');
  await form.getByLabel('Schedule kind').selectOption('daily');
  await form.getByRole('textbox', { name: 'Time zone' }).fill('UTC');
  await form.getByLabel('Time of day').fill('09:30');
  const preview = form.getByTestId('schedule-preview').getByRole('listitem');
  await expect(preview).toHaveCount(5);
  await expect(preview.first()).toContainText('09:30');

  // A broken cron expression is explained beside the field, and nothing can be previewed.
  await form.getByLabel('Schedule kind').selectOption('cron');
  await form.getByRole('textbox', { name: 'Cron expression' }).fill('61 * * * *');
  await expect(form.getByRole('alert')).toContainText('Invalid value for minute');
  await form.getByLabel('Schedule kind').selectOption('daily');
  await expect(preview).toHaveCount(5);

  // The editor offers Auto; a task saved in Full is marked in the list.
  const mode = form.getByLabel('Permission mode');
  await expect(mode.locator('option[value="auto"]')).toHaveText('Auto (runs in the sandbox, unasked)');
  await mode.selectOption('full');
  await form.getByRole('button', { name: 'Create task' }).click();
  const row = page.getByTestId('automation-task').filter({ hasText: 'Morning issues' });
  await expect(row).toContainText('Next:');
  await expect(row.getByTestId('automation-full')).toHaveText('Full access');
  await expect(row.getByTestId('automation-last')).toHaveText('never run');

  await row.getByRole('button', { name: 'Run now' }).click();
  await expect(row.getByTestId('automation-last')).toHaveText('completed');
  await row.getByRole('button', { name: 'History' }).click();
  const firing = row.getByTestId('firing-row');
  await expect(firing).toHaveCount(1);
  await expect(firing).toContainText('(run now)');
  await expect(firing).toContainText('completed');
  await firing.getByRole('button', { name: 'Open turn' }).click();
  await expect(page.getByText('Summarise the new issues').first()).toBeVisible();
});

test('enable the daily review, run it now, and open its session', async ({ page, cairn }) => {
  await cairn.open(page);
  await page.getByTestId('automations-entry').click();
  const review = page.getByTestId('daily-review');
  // The switch follows the record: it turns on once the host has saved the setting.
  await review.getByRole('switch', { name: 'Daily review enabled' }).click();
  await expect(review.getByRole('switch', { name: 'Daily review enabled' })).toBeChecked();
  await expect(review).toContainText('Next:');
  // Who writes it: the default, or a connection of the person's choosing (saved with the review's settings).
  await review.getByRole('combobox', { name: 'Review connection' }).selectOption({ label: 'Offline demo' });
  await expect.poll(async () => (await cairn.call('dailyReview.get', {})).config.connectionId).not.toBeNull();
  await review.getByRole('button', { name: 'Run review now' }).click();
  await expect(review.getByTestId('review-last')).toHaveText('completed');
  // Said as news, not as a failure.
  await expect(page.locator('.toast[data-tone="info"]').filter({ hasText: 'daily review finished' })).toBeVisible();
  await expect(page.locator('.toast[data-tone="error"]')).toHaveCount(0);
  await review.getByTestId('open-review-session').click();
  await expect(page.getByText('Daily review for the day ending').first()).toBeVisible();
  await expect(page.getByTestId('session-row').filter({ hasText: 'Daily review' })).toHaveCount(1);
  // It is pinned: the first row of the list, marked so, even though other sessions are newer.
  await cairn.call('session.create', { title: 'Newer work' });
  await expect(page.getByTestId('session-row').filter({ hasText: 'Newer work' })).toHaveCount(1);
  await expect(page.getByTestId('session-row').first()).toContainText('Daily review');
  await expect(page.getByTestId('session-row').first().getByTestId('pinned-badge')).toHaveText('pinned');
  await expect(page.getByTestId('pinned-badge')).toHaveCount(1);
  await page.reload();
  await expect(page.getByTestId('session-row').first().getByTestId('pinned-badge')).toBeVisible();
  await expect(page.getByTestId('session-row').first()).toContainText('Daily review');
});
