import { expect, test } from './fixtures';

const allChunks = (total: number) => Array.from({ length: total }, (_, index) => `chunk ${index + 1}/${total}`);

test('reloading in the middle of a stream converges on the full, correct transcript', async ({ page, cairn }) => {
  const { session } = await cairn.call('session.create', {});
  await cairn.open(page);
  await page.getByTestId('session-row').filter({ hasText: 'New session' }).first().click();
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill('/stream 100 50');
  await composer.press('Enter');
  const reply = page.locator('[data-kind="assistant_message"]').last();
  await expect(reply).toContainText('chunk 10/100');
  await page.reload();
  await page.getByTestId('session-row').filter({ hasText: 'Offline demo: stream' }).first().click();
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed', { timeout: 20_000 });
  const text = (await page.locator('[data-kind="assistant_message"]').last().textContent()) ?? '';
  for (const chunk of allChunks(100)) expect(text.split(chunk)).toHaveLength(2);
  const { transcript } = await cairn.call('session.get', { sessionId: session.sessionId });
  expect(text).toBe(transcript.items.at(-1)?.text);
});

test('after the host is killed mid-stream and restarted, the page shows the interrupted turn and Resume completes it', async ({
  page,
  cairn,
}) => {
  test.slow(); // a 12 s stream, a host kill and a restart
  await cairn.open(page);
  await page.getByRole('button', { name: 'New session', exact: true }).first().click();
  const composer = page.getByRole('textbox', { name: 'Message' });
  // 12 s of stream: the kill lands midway even when a loaded machine is slow to see chunk 20.
  await composer.fill('/stream 120 100');
  await composer.press('Enter');
  const reply = page.locator('[data-kind="assistant_message"]').last();
  await expect(reply).toContainText('chunk 20/120');
  await cairn.kill();
  const seenBeforeKill = (await reply.textContent()) ?? '';
  await expect(page.getByTestId('connection-banner')).toBeVisible();

  await cairn.start();
  await expect(page.getByTestId('connection-banner')).toBeHidden({ timeout: 15_000 });
  const status = page.getByTestId('turn-status').last();
  await expect(status).toHaveAttribute('data-status', 'interrupted');
  const afterRestart = (await page.locator('[data-kind="assistant_message"]').last().textContent()) ?? '';
  expect(afterRestart.startsWith(seenBeforeKill.trim().slice(0, -1))).toBe(true);
  await expect(page.getByTestId('session-badge').first()).toHaveText(/interrupted/i);

  await page.getByRole('button', { name: 'Resume' }).click();
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed', { timeout: 40_000 });
  const text = (await page.getByTestId('transcript').textContent()) ?? '';
  for (const chunk of allChunks(120)) expect(text.split(chunk)).toHaveLength(2);
});
