import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';

const artifacts = join(process.cwd(), 'e2e-artifacts');

/** Screenshots of the view at both widths the issue names, light and dark. */
async function shoot(page: Page, name: string, subject: Locator): Promise<void> {
  mkdirSync(artifacts, { recursive: true });
  for (const width of [900, 1280]) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height: width === 900 ? 700 : 800 });
      await page.emulateMedia({ colorScheme: scheme });
      await subject.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(artifacts, `${name}-${width}-${scheme}.png`) });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test('a scheduled task’s message is marked "Scheduled · <task>", without Edit, beside the person’s own', async ({
  page,
  cairn,
}) => {
  test.slow(); // eight screenshots
  const { session } = await cairn.call('session.create', { title: 'Garden' });
  await cairn.call('schedule.create', {
    taskId: 'task-garden',
    title: 'Garden ping',
    prompt: 'Check the tomato beds',
    target: { kind: 'session', sessionId: session.sessionId },
    schedule: { kind: 'every', minutes: 600 },
    timeZone: 'UTC',
    effect: 'turn',
  });
  await cairn.call('schedule.runNow', { taskId: 'task-garden', requestId: 'run-garden-1' });
  await cairn.open(page);
  await page.getByTestId('session-row').filter({ hasText: 'Garden' }).click();
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');

  const scheduled = page.locator('.entry').filter({ has: page.getByTestId('message-author') });
  await expect(scheduled.getByTestId('message-author')).toHaveText('Scheduled · Garden ping');
  await expect(scheduled.locator('[data-kind="user_message"]')).toHaveText('Check the tomato beds');
  await expect(scheduled.getByRole('button', { name: 'Edit' })).toHaveCount(0);
  await expect(page.locator('.message-user')).toHaveCount(0);

  // The person's own message next to it is still theirs, with Edit.
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill('Water them tonight');
  await composer.press('Enter');
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');
  const mine = page.locator('.entry').filter({ has: page.locator('.message-user', { hasText: 'Water them tonight' }) });
  await expect(mine.getByRole('button', { name: 'Edit' })).toBeVisible();
  await expect(page.getByTestId('message-author')).toHaveCount(1);
  await shoot(page, 'authorship-scheduled', scheduled);
});

test('the daily review’s message is marked "Daily review", without Edit', async ({ page, cairn }) => {
  const { config } = await cairn.call('dailyReview.get', {});
  await cairn.call('dailyReview.update', {
    expectedRevision: config.revision,
    enabled: true,
    time: '23:30',
    timeZone: 'UTC',
    connectionId: null,
    model: null,
  });
  await cairn.call('dailyReview.runNow', { requestId: 'review-1' });
  await cairn.open(page);
  await page.getByTestId('session-row').filter({ hasText: 'Daily review' }).click();
  const review = page.locator('.entry').filter({ has: page.getByTestId('message-author') });
  await expect(review.getByTestId('message-author')).toHaveText('Daily review');
  await expect(review.locator('[data-kind="user_message"]')).toContainText('Daily review for the day ending');
  await expect(review.getByRole('button', { name: 'Edit' })).toHaveCount(0);
});

test('subagents: the parent is never titled by the directive, children are named by agent, task and ordinal, and are no automation targets', async ({
  page,
  cairn,
}) => {
  test.slow(); // two children held running
  await cairn.open(page);
  const { session } = await cairn.call('session.create', {});
  await page.getByTestId('session-row').first().locator('.session-row-main').click();
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill('/spawn-many 2 worker "/hold" wait');
  await composer.press('Enter');
  await expect(page.getByTestId('spawn-card')).toHaveCount(2);
  await expect(page.getByTestId('session-title')).toHaveText('Offline demo: worker subagents');

  const { tree } = await cairn.call('agent.tree', { sessionId: session.sessionId });
  const titles = await Promise.all(
    tree.children.map(
      async (child) => (await cairn.call('session.get', { sessionId: child.childSessionId })).session.title,
    ),
  );
  expect(titles).toEqual(['Worker: hold', 'Worker: hold (2)']);
  await page.getByTestId('agent-children-toggle').click();
  await expect(page.getByTestId('agent-child-row')).toHaveText([/^Worker: hold(?! \()/, /^Worker: hold \(2\)/]);

  // A child's session gets its work from its agent: the scheduled-task form does not offer it, and the host refuses it.
  await page.getByTestId('automations-entry').click();
  await page.getByRole('button', { name: 'New task' }).click();
  const target = page.getByRole('form', { name: 'New scheduled task' }).getByLabel('Where');
  await expect(target.locator('option')).toHaveText(['A new session each time', 'Offline demo: worker subagents']);
  await expect(
    cairn.call('schedule.create', {
      taskId: 'task-child',
      title: 'Nudge the worker',
      prompt: 'Carry on',
      target: { kind: 'session', sessionId: tree.children[0]?.childSessionId ?? '' },
      schedule: { kind: 'every', minutes: 600 },
      timeZone: 'UTC',
      effect: 'turn',
    }),
  ).rejects.toThrow(/invalid_input: "Worker: hold" is a child agent's session/);
  await page.keyboard.press('Escape');
  await cairn.call('turn.stop', { sessionId: session.sessionId });
});

test('a resumed turn shows where it picked up as a marker, not in the answer, its copy or its export', async ({
  page,
  cairn,
}) => {
  test.slow(); // a stream long enough to stop midway, then resumed
  const { session } = await cairn.call('session.create', { title: 'Long stream' });
  await cairn.open(page);
  await page.getByTestId('session-row').filter({ hasText: 'Long stream' }).locator('.session-row-main').click();
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill('/stream 40 400');
  await composer.press('Enter');
  const answer = page.locator('[data-testid="message"][data-kind="assistant_message"]');
  await expect(answer).toContainText('chunk 2/40');
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'cancelled');
  await page.getByTestId('turn-status').last().getByRole('button', { name: 'Resume' }).click();
  // The rest of the stream takes several seconds by design.
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed', { timeout: 60_000 });

  // The marker sits in the answer where the resumed part starts, not under the whole answer.
  const marker = answer.getByTestId('resume-marker');
  await expect(marker).toHaveAccessibleName('Resumed: the previous attempt ended because you pressed Stop.');
  await expect(page.getByTestId('resume-marker')).toHaveCount(1);
  const [before, after] = await marker.evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element.closest('[data-testid="message"]')!);
    range.setEndBefore(element);
    const head = range.toString();
    return [head, (element.closest('[data-testid="message"]')!.textContent ?? '').slice(head.length)];
  });
  expect(before).toContain('chunk 2/40');
  expect(before).not.toContain('chunk 40/40');
  expect(after).toContain('chunk 40/40');
  await expect(answer).toHaveCount(1);
  await expect(answer).toContainText('chunk 40/40');
  await expect(answer).not.toContainText('Resum');
  const { content } = await cairn.call('session.export', { sessionId: session.sessionId, format: 'markdown' });
  expect(content).toContain('chunk 40/40');
  expect(content).not.toContain('Resumed:');
});
