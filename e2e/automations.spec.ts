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

test('Automations: Run review now says why it is off, and Remove is secondary and asks first', async ({
  page,
  cairn,
}) => {
  test.setTimeout(150_000); // the host starts inside the test's time; on a loaded two-core machine that can take most of a minute
  const { session } = await cairn.call('session.create', { title: 'Garden' });
  await cairn.call('schedule.create', {
    taskId: 'task-garden-ping',
    title: 'Garden ping',
    prompt: 'Say hello to the garden',
    target: { kind: 'session', sessionId: session.sessionId },
    schedule: { kind: 'daily', time: '09:30', weekdays: [0, 1, 2, 3, 4, 5, 6] },
    timeZone: 'UTC',
    effect: 'turn',
  });
  await cairn.open(page);
  await page.getByTestId('automations-entry').click();

  const review = page.getByTestId('daily-review');
  const runReview = review.getByRole('button', { name: 'Run review now' });
  await expect(runReview).toBeDisabled();
  await expect(runReview).toHaveAccessibleDescription(
    'Turn the daily review on first: Run now uses its settings, which are not saved yet.',
  );
  await review.getByRole('switch', { name: 'Daily review enabled' }).click();
  await expect(runReview).toBeEnabled();
  await expect(review.getByTestId('run-review-why')).toHaveCount(0);

  const row = page.getByTestId('automation-task').filter({ hasText: 'Garden ping' });
  await expect(row).toContainText('Daily at 09:30');
  const remove = row.getByRole('button', { name: 'Remove…' });
  await expect(remove).toHaveClass(/button-quiet/);
  await remove.click();
  const confirm = row.getByRole('group', { name: 'Remove Garden ping?' });
  await expect(confirm).toContainText('Remove this task and its history?');
  await confirm.getByRole('button', { name: 'Keep' }).click();
  await expect(row).toHaveCount(1);
  expect((await cairn.call('schedule.list', {})).tasks).toHaveLength(1);
  await row.getByRole('button', { name: 'Remove…' }).click();
  await row.getByRole('group', { name: 'Remove Garden ping?' }).getByRole('button', { name: 'Remove' }).click();
  await expect(row).toHaveCount(0);
  await expect.poll(async () => (await cairn.call('schedule.list', {})).tasks.length).toBe(0);
});
