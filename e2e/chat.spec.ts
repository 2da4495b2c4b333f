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

  // The message box grows with its text up to 280 px, then scrolls, and is one line again once sent. The
  // browser sizes it (field-sizing): typing forces no layout of the page, nothing reads its scrollHeight.
  await page.evaluate(() => {
    const reads = { count: 0 };
    (window as unknown as { boxHeightReads: typeof reads }).boxHeightReads = reads;
    const own = Object.getOwnPropertyDescriptor(Element.prototype, 'scrollHeight');
    Object.defineProperty(HTMLTextAreaElement.prototype, 'scrollHeight', {
      get(this: HTMLTextAreaElement) {
        reads.count += 1;
        return own?.get?.call(this) as number;
      },
    });
  });
  const height = async () => (await composer.boundingBox())?.height ?? 0;
  const oneLine = await height();
  await composer.pressSequentially('Plan');
  for (const line of ['the', 'spring']) {
    await composer.press('Shift+Enter');
    await composer.pressSequentially(line);
  }
  await expect.poll(height).toBeGreaterThan(oneLine + 30);
  await composer.fill(Array.from({ length: 30 }, (_, line) => `line ${line + 1}`).join('\n'));
  await expect.poll(height).toBe(280);
  await composer.fill('Plan the spring release');
  await expect.poll(height).toBe(oneLine);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(composer).toHaveValue('');
  expect(await height()).toBe(oneLine);
  expect(
    await page.evaluate(() => (window as unknown as { boxHeightReads: { count: number } }).boxHeightReads.count),
  ).toBe(0);
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
