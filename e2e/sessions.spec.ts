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
