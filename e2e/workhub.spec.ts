import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

/** Opens the WorkHub from its pinned sidebar entry and asks it something; returns the proposal card it answers with. */
async function ask(page: Page, text: string) {
  await page.getByTestId('workhub-entry').click();
  await expect(page.getByTestId('workhub-view')).toBeVisible();
  // The newest card before asking: the same words may have been asked already, and the request and
  // its proposal reach the page as separate events, so neither the newest message nor the newest card
  // says this request was answered until the newest card is a different one.
  const newestRequestId = () =>
    page.getByTestId('proposal-card').evaluateAll((cards) => cards.at(-1)?.getAttribute('data-request-id') ?? null);
  const before = await newestRequestId();
  const composer = page.getByRole('textbox', { name: 'Ask the WorkHub' });
  await composer.fill(text);
  await composer.press('Enter');
  let requestId: string | null = null;
  await expect
    .poll(
      async () => {
        requestId = await newestRequestId();
        return requestId !== null && requestId !== before;
      },
      { message: `a proposal for “${text}”` },
    )
    .toBe(true);
  await expect(page.locator('[data-kind="user_message"]').last()).toHaveText(text);
  return page.locator(`[data-testid="proposal-card"][data-request-id="${requestId}"]`);
}

test('a request goes to the session it belongs to, and runs there', async ({ page, cairn }) => {
  await cairn.call('session.create', { title: 'Quarterly report' });
  await cairn.call('session.create', { title: 'Garden plans' });
  await cairn.open(page);
  // The WorkHub is pinned above the list, never one of the sessions in it.
  await expect(page.getByTestId('session-row')).toHaveCount(2);

  const card = await ask(page, 'Add the revenue chart to the quarterly report');
  await expect(card).toHaveAttribute('data-kind', 'delegate_existing');
  await expect(card.getByTestId('proposal-headline')).toHaveText('Hand this to “Quarterly report”');
  await card.getByRole('button', { name: /Considered \d+ sessions/ }).click();
  await expect(card.getByTestId('candidate').filter({ hasText: 'Quarterly report' })).toContainText('title matches');

  await card.getByRole('button', { name: 'Do it' }).click();
  await expect(card.getByTestId('proposal-result')).toContainText('Handed to “Quarterly report”');
  await card.getByTestId('open-target').click();
  await expect(page.getByTestId('session-title')).toHaveText('Quarterly report');
  await expect(page.locator('[data-kind="user_message"]').last()).toHaveText(
    'Add the revenue chart to the quarterly report',
  );
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');

  // The Tasks view lists it with its live state, and opens it.
  await page.getByTestId('workhub-entry').click();
  await page.getByTestId('workhub-view').getByRole('button', { name: 'Tasks' }).click();
  const task = page.getByTestId('tasks-view').getByTestId('task');
  await expect(task).toHaveCount(1);
  await expect(task).toHaveAttribute('data-status', 'completed');
  await task.getByRole('button').click();
  await expect(page.getByTestId('session-title')).toHaveText('Quarterly report');
});

test('new work gets a new session that runs the request', async ({ page, cairn }) => {
  await cairn.call('session.create', { title: 'Quarterly report' });
  await cairn.open(page);
  const card = await ask(page, 'new: plan a birthday party for Sam');
  await expect(card).toHaveAttribute('data-kind', 'create_new');
  await expect(card.getByTestId('proposal-headline')).toContainText('Start new work');
  await card.getByRole('button', { name: 'Do it' }).click();
  await expect(card.getByTestId('proposal-result')).toContainText('Started new work in');

  const rows = page.getByTestId('session-row');
  await expect(rows).toHaveCount(2);
  const created = rows.filter({ hasText: /birthday party for Sam/i });
  await expect(created).toHaveCount(1);
  await created.getByRole('button').first().click();
  await expect(page.locator('[data-kind="user_message"]').last()).toHaveText('new: plan a birthday party for Sam');
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');
});

test('stopping delegated work asks first, then stops it', async ({ page, cairn }) => {
  await cairn.call('session.create', { title: 'Quarterly report' });
  await cairn.call('session.create', { title: 'Garden plans' });
  await cairn.open(page);

  // The scripted agent reads a directive at the start of the text it is handed.
  const run = await ask(page, '/hold in the quarterly report');
  await expect(run).toHaveAttribute('data-kind', 'delegate_existing');
  await run.getByRole('button', { name: 'Do it' }).click();
  await expect(run.getByTestId('proposal-result')).toContainText('Handed to “Quarterly report”');

  const stop = await ask(page, 'stop the quarterly report');
  await expect(stop).toHaveAttribute('data-kind', 'stop_work');
  await expect(stop.getByTestId('proposal-headline')).toHaveText('Stop the work in “Quarterly report”');
  await stop.getByRole('button', { name: 'Stop' }).click();

  const dialog = page.getByRole('dialog', { name: 'Stop the work in “Quarterly report”?' });
  await expect(dialog).toBeVisible();
  // Keep running sends nothing.
  await dialog.getByRole('button', { name: 'Keep running' }).click();
  await expect(dialog).toBeHidden();
  await expect(stop).toHaveAttribute('data-phase', 'open');

  await stop.getByRole('button', { name: 'Stop' }).click();
  await dialog.getByRole('button', { name: 'Stop' }).click();
  await expect(stop.getByTestId('proposal-result')).toHaveText('Stop delivered to “Quarterly report”');
  await expect(stop.getByTestId('proposal-result')).toHaveAttribute('data-outcome', 'stop_delivered');

  await stop.getByTestId('open-target').click();
  await expect(page.getByTestId('session-title')).toHaveText('Quarterly report');
  await expect(page.locator('[data-kind="user_message"]').last()).toHaveText('/hold in the quarterly report');
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'cancelled');
});

test('after a reload, decided cards show what happened and offer nothing; a stale Resume cannot be clicked', async ({
  page,
  cairn,
}) => {
  const report = (await cairn.call('session.create', { title: 'Quarterly report' })).session.sessionId;
  await cairn.call('session.create', { title: 'Garden plans' });
  await cairn.open(page);

  const run = await ask(page, '/hold in the quarterly report');
  await run.getByRole('button', { name: 'Do it' }).click();
  await expect(run.getByTestId('proposal-result')).toContainText('Handed to “Quarterly report”');
  const stop = await ask(page, 'stop the quarterly report');
  await stop.getByRole('button', { name: 'Stop' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Stop' }).click();
  await expect(stop.getByTestId('proposal-result')).toHaveText('Stop delivered to “Quarterly report”');

  // A second window shows the Resume proposal; the first acts on it.
  const resume = await ask(page, 'resume the quarterly report');
  const requestId = await resume.getAttribute('data-request-id');
  const other = await page.context().newPage();
  await cairn.open(other);
  await other.getByTestId('workhub-entry').click();
  const elsewhere = other.locator(`[data-testid="proposal-card"][data-request-id="${requestId}"]`);
  await expect(elsewhere.getByRole('button', { name: 'Resume' })).toBeVisible();
  await resume.getByRole('button', { name: 'Resume' }).click();
  await expect(resume.getByTestId('proposal-result')).toContainText('Resumed in “Quarterly report”');
  // The other window learns it from the record: its Resume is gone, so it cannot be clicked again.
  await expect(elsewhere).toHaveAttribute('data-phase', 'done');
  await expect(elsewhere.getByRole('button', { name: 'Resume' })).toHaveCount(0);
  await expect(elsewhere.getByTestId('proposal-result')).toContainText('Resumed in “Quarterly report”');
  await other.close();

  const cancelled = await ask(page, 'Plant tomatoes in the garden plans');
  await cancelled.getByRole('button', { name: 'Cancel' }).click();
  await expect(cancelled).toHaveAttribute('data-phase', 'cancelled');
  const setAside = await ask(page, 'Water the garden plans daily');
  const newest = await ask(page, 'Order seeds for the garden plans');
  await expect(setAside).toHaveAttribute('data-phase', 'superseded');

  await page.reload();
  await page.getByTestId('workhub-entry').click();
  const decided = [
    [run, 'done', 'Handed to “Quarterly report”'],
    [stop, 'done', 'Stop delivered to “Quarterly report”'],
    [resume, 'done', 'Resumed in “Quarterly report”'],
    [cancelled, 'cancelled', 'cancelled; nothing was done'],
    [setAside, 'superseded', 'set aside for a newer request'],
  ] as const;
  for (const [card, phase, text] of decided) {
    // The transcript is virtualized: scroll back until the card is rendered (it may be above the fold).
    await expect(async () => {
      if ((await card.count()) === 0)
        await page
          .getByTestId('workhub-view')
          .getByTestId('transcript')
          .evaluate((element) => element.scrollBy(0, -300));
      expect(await card.count()).toBe(1);
    }).toPass({ timeout: 15_000 });
    await expect(card).toHaveAttribute('data-phase', phase);
    await expect(card.getByTestId('proposal-result')).toContainText(text);
    await expect(
      card.getByRole('button', { name: /^(Do it|Stop|Resume|Cancel|Pick another|Start new instead)$/ }),
    ).toHaveCount(0);
  }
  await expect(newest).toHaveAttribute('data-phase', 'open');
  await expect(newest.getByRole('button', { name: 'Do it' })).toBeEnabled();

  // What the cards say about the work follows it live, never a snapshot from when they were made.
  await expect(resume.getByTestId('proposal-result')).toContainText('running there now');
  await newest.getByRole('button', { name: /Considered \d+ sessions/ }).click();
  const chip = newest.getByTestId('candidate').filter({ hasText: 'Quarterly report' }).getByTestId('state-chip');
  await expect(chip).toHaveAttribute('data-state', 'running');
  await cairn.call('turn.stop', { sessionId: report });
  await expect(chip).toHaveAttribute('data-state', 'idle');
  await expect(resume.getByTestId('proposal-result')).toContainText('Resumed in “Quarterly report” — stopped');
});

test('Stop is offered only while something runs there', async ({ page, cairn }) => {
  const report = (await cairn.call('session.create', { title: 'Quarterly report' })).session.sessionId;
  await cairn.open(page);
  const run = await ask(page, '/hold in the quarterly report');
  await run.getByRole('button', { name: 'Do it' }).click();
  await expect(run.getByTestId('proposal-result')).toContainText('Handed to “Quarterly report”');

  const stop = await ask(page, 'stop the quarterly report');
  await expect(stop.getByRole('button', { name: 'Stop' })).toBeVisible();
  // The work ends before the person clicks: the card no longer offers a Stop that would do nothing.
  await cairn.call('turn.stop', { sessionId: report });
  await expect(stop.getByTestId('nothing-to-stop')).toHaveText(
    'Nothing is running there now, so there is nothing to stop.',
  );
  await expect(stop.getByRole('button', { name: 'Stop' })).toHaveCount(0);

  const again = await ask(page, 'stop the quarterly report');
  await expect(again).toHaveAttribute('data-kind', 'answer_here');
  await expect(page.locator('[data-kind="assistant_message"]').last()).toHaveText(
    'Nothing is running in “Quarterly report”, so there is nothing to stop.',
  );
});

test('moving a request to another session says so in the session it left', async ({ page, cairn }) => {
  await cairn.call('session.create', { title: 'Quarterly report' });
  await cairn.call('session.create', { title: 'Garden plans' });
  await cairn.open(page);
  const run = await ask(page, '/hold order seeds for the quarterly report');
  await run.getByRole('button', { name: 'Do it' }).click();
  await expect(run.getByTestId('proposal-result')).toContainText('Handed to “Quarterly report”');

  const move = await ask(page, 'no, the garden plans instead');
  await expect(move).toHaveAttribute('data-kind', 'correct');
  await move.getByRole('button', { name: 'Move it' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Move it' }).click();
  await expect(move.getByTestId('proposal-result')).toHaveText(
    'Moved to “Garden plans” — the earlier work was stopped',
  );

  await page.getByTestId('session-row').filter({ hasText: 'Quarterly report' }).getByRole('button').first().click();
  await expect(page.getByTestId('session-title')).toHaveText('Quarterly report');
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'cancelled');
  await expect(page.getByTestId('turn-status').last()).toContainText(
    'Stopped — the WorkHub moved this request to another session',
  );
});

test('a request queued behind the person’s own work, stopped, then moved to another session runs there', async ({
  page,
  cairn,
}) => {
  const report = (await cairn.call('session.create', { title: 'Quarterly report' })).session.sessionId;
  await cairn.call('session.create', { title: 'Garden plans' });
  // The person's own work keeps the report busy, so the request waits behind it.
  await cairn.call('turn.start', { sessionId: report, turnId: 'own-work', text: '/hold' });
  await cairn.open(page);

  const run = await ask(page, 'Order seeds for the quarterly report');
  await run.getByRole('button', { name: 'Do it' }).click();
  await expect(run.getByTestId('proposal-result')).toContainText('Handed to “Quarterly report”');

  const stop = await ask(page, 'stop the quarterly report');
  await expect(stop).toHaveAttribute('data-kind', 'stop_work');
  await stop.getByRole('button', { name: 'Stop' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Stop' }).click();
  await expect(stop.getByTestId('proposal-result')).toHaveAttribute('data-outcome', 'stop_delivered');

  const move = await ask(page, 'no, the garden plans instead');
  await expect(move).toHaveAttribute('data-kind', 'correct');
  await move.getByRole('button', { name: 'Move it' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Move it' }).click();
  await expect(move.getByTestId('proposal-result')).toContainText('Moved to “Garden plans”');

  await move.getByTestId('open-target').click();
  await expect(page.getByTestId('session-title')).toHaveText('Garden plans');
  await expect(page.locator('[data-kind="user_message"]').last()).toHaveText('Order seeds for the quarterly report');
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');
  // The person's own work in the report was never touched.
  expect((await cairn.call('turn.query', { sessionId: report, turnId: 'own-work' })).turn.status).toBe('running');
  await cairn.call('turn.stop', { sessionId: report });
});
