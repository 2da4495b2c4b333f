import { expect, test } from './fixtures';

// The host starts (tsx) inside each test's time; on a loaded two-core machine that alone can take most of a minute.
test.describe.configure({ timeout: 150_000 });

test('New session reuses a blank session, and a blank one is not kept when the person leaves it', async ({ page, cairn }) => {
  await cairn.open(page);
  const newSession = page.getByRole('button', { name: 'New session', exact: true }).first();
  const rows = page.getByTestId('session-row');
  for (let click = 0; click < 3; click += 1) {
    await newSession.click();
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
  }
  await expect(rows).toHaveCount(1);

  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill('/stream 2 1');
  await composer.press('Enter');
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');
  const written = rows.first();
  const writtenTitle = (await written.textContent()) ?? '';

  // A session with a message is kept; the next New session makes a new one.
  await newSession.click();
  await expect(rows).toHaveCount(2);
  await expect(page.getByTestId('turn-status')).toHaveCount(0);
  // Leaving the blank one removes it, on the host too.
  await rows.filter({ hasText: writtenTitle.slice(0, 12) }).click();
  await expect(page.getByTestId('turn-status')).toHaveCount(1);
  await expect(rows).toHaveCount(1);
  await expect.poll(async () => (await cairn.call('session.list', { archived: false, limit: 50 })).sessions.length).toBe(1);

  // A blank session the person typed into is kept when they leave it.
  await newSession.click();
  await expect(rows).toHaveCount(2);
  await composer.fill('a draft to come back to');
  await rows.filter({ hasText: writtenTitle.slice(0, 12) }).click();
  await expect(page.getByTestId('turn-status')).toHaveCount(1);
  await expect(rows).toHaveCount(2);
});

test('Automations: Run review now says why it is off, and Remove is secondary and asks first', async ({ page, cairn }) => {
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
  await expect(runReview).toHaveAccessibleDescription('Turn the daily review on first: Run now uses its settings, which are not saved yet.');
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
