import { expect, test } from './fixtures';

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
