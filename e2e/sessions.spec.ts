import { expect, test } from './fixtures';

test('rename, archive, search and delete work and survive a restart', async ({ page, cairn }) => {
  for (const title of ['Quarterly report', 'Garden plans', 'Tax return', 'Holiday ideas']) {
    await cairn.call('session.create', { title });
  }
  await cairn.open(page);
  const rows = page.getByTestId('session-row');
  await expect(rows).toHaveCount(4);

  // Rename inline.
  const garden = rows.filter({ hasText: 'Garden plans' });
  await garden.hover();
  await garden.getByRole('button', { name: 'Rename' }).click();
  const titleInput = page.getByRole('textbox', { name: 'Session title' });
  await titleInput.fill('Vegetable garden');
  await titleInput.press('Enter');
  await expect(rows.filter({ hasText: 'Vegetable garden' })).toHaveCount(1);

  // Archive.
  const tax = rows.filter({ hasText: 'Tax return' });
  await tax.hover();
  await tax.getByRole('button', { name: 'Archive' }).click();
  await expect(rows.filter({ hasText: 'Tax return' })).toHaveCount(0);

  // Delete, with confirmation.
  const holiday = rows.filter({ hasText: 'Holiday ideas' });
  await holiday.hover();
  await holiday.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(rows.filter({ hasText: 'Holiday ideas' })).toHaveCount(0);

  // Search.
  await page
    .getByRole('searchbox', { name: 'Search sessions' })
    .or(page.getByRole('textbox', { name: 'Search sessions' }))
    .fill('garden');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Vegetable garden');

  // Restart the host and reload: all of it is still so.
  await cairn.stop();
  await cairn.start();
  await page.reload();
  await expect(page.getByRole('navigation', { name: 'Sessions' })).toBeVisible();
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: 'Vegetable garden' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'Quarterly report' })).toHaveCount(1);
  await page.getByRole('button', { name: 'Show archived' }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Tax return');
});

test('a long list: the first page of 100 sessions shows whole, and Show more brings the rest', async ({
  page,
  cairn,
}) => {
  for (let index = 1; index <= 130; index += 1)
    await cairn.call('session.create', { title: `Session ${String(index).padStart(3, '0')}` });
  await cairn.open(page);
  const rows = page.getByTestId('session-row');
  // The first rows are drawn with the page, the rest of the page just after: all 100.
  await expect(rows).toHaveCount(100);
  await page.getByRole('button', { name: 'Show more' }).click();
  await expect(rows).toHaveCount(130);
  await expect(page.getByRole('button', { name: 'Show more' })).toHaveCount(0);
  const titles = await rows.allTextContents();
  for (let index = 1; index <= 130; index += 1)
    expect(titles.filter((text) => text.includes(`Session ${String(index).padStart(3, '0')}`))).toHaveLength(1);
  // A row drawn after the first ones is a row like the others: it opens its session.
  const late = rows.nth(70);
  const title = ((await late.textContent()) ?? '').match(/Session \d{3}/)?.[0] ?? '';
  await late.click();
  await expect(page.getByTestId('session-title')).toHaveText(title);
  // After a reload the open session's row, far down the list, is scrolled into view.
  await page.reload();
  await expect(page.getByTestId('session-title')).toHaveText(title);
  await expect(rows.filter({ hasText: title })).toBeInViewport();
  await expect(rows.first()).not.toBeInViewport();
});

test('New session reuses a blank session, and a blank one is not kept when the person leaves it', async ({
  page,
  cairn,
}) => {
  test.setTimeout(150_000); // the host starts inside the test's time; on a loaded two-core machine that can take most of a minute
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
  await expect
    .poll(async () => (await cairn.call('session.list', { archived: false, limit: 50 })).sessions.length)
    .toBe(1);

  // A blank session the person typed into is kept when they leave it.
  await newSession.click();
  await expect(rows).toHaveCount(2);
  await composer.fill('a draft to come back to');
  await rows.filter({ hasText: writtenTitle.slice(0, 12) }).click();
  await expect(page.getByTestId('turn-status')).toHaveCount(1);
  await expect(rows).toHaveCount(2);
});
