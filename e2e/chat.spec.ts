import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './fixtures';

test('a new session streams the reply, completes the turn and takes its title from the message', async ({
  page,
  cairn,
}) => {
  await cairn.open(page);
  await page.getByRole('button', { name: 'New session', exact: true }).first().click();
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill('/stream 30 40');
  // The reply must be seen partway (streaming), then whole: the page notes every partial state it shows,
  // so the check does not depend on how fast a loaded machine gets to look.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { partialReplies: string[] }).partialReplies = seen;
    new MutationObserver(() => {
      const replies = document.querySelectorAll('[data-testid="message"][data-kind="assistant_message"]');
      const text = replies[replies.length - 1]?.textContent ?? '';
      if (text.includes('chunk ') && !text.includes('chunk 30/30')) seen.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await composer.press('Enter');

  const reply = page.locator('[data-testid="message"][data-kind="assistant_message"]').last();
  await expect(reply).toContainText('chunk 30/30.');
  expect(
    await page.evaluate(() => (window as unknown as { partialReplies: string[] }).partialReplies.length),
  ).toBeGreaterThan(0);
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');
  await expect(composer).toHaveValue('');

  await composer.fill('Plan the spring release');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');
  await expect(page.getByTestId('session-row').first()).toContainText('Offline demo: stream');
  await expect(page.getByTestId('session-title')).toHaveText('Offline demo: stream');

  const artifacts = join(process.cwd(), 'e2e-artifacts');
  mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: join(artifacts, 'chat.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: join(artifacts, 'chat-dark.png'), fullPage: true });
});

test('Stop cancels a held turn and the composer works again', async ({ page, cairn }) => {
  await cairn.open(page);
  await page.getByRole('button', { name: 'New session', exact: true }).first().click();
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill('/hold');
  await composer.press('Enter');
  const status = page.getByTestId('turn-status').last();
  await expect(status).toHaveAttribute('data-status', 'running');
  await expect(page.locator('[data-kind="assistant_message"]').last()).toContainText('Holding');

  // The Stop bound itself is measured by the host tests and benches, not timed here: a loaded machine
  // may take longer to paint, and that is not the host's delay.
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(status).toHaveAttribute('data-status', 'cancelled');

  await composer.fill('still here?');
  await composer.press('Enter');
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');
  await expect(page.locator('[data-kind="assistant_message"]').last()).toContainText('still here?');
  // The held backend's late output, emitted after the stop, never shows up.
  await expect(page.getByTestId('transcript')).not.toContainText('late output');
});

test('Esc stops the running turn', async ({ page, cairn }) => {
  await cairn.open(page);
  await page.getByRole('button', { name: 'New session', exact: true }).first().click();
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill('/hold');
  await composer.press('Enter');
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'running');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'cancelled');
});
