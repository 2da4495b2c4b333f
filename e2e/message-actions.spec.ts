import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';

const messages = (page: Page, kind: string) => page.locator(`[data-testid="message"][data-kind="${kind}"]`);
const entryOf = (page: Page, message: Locator) => page.locator('.entry').filter({ has: message });
const opacity = (locator: Locator) => locator.evaluate((element) => getComputedStyle(element).opacity);

test('one compact action row per message, on hover or focus — none under interim lines or WorkHub requests', async ({
  page,
  cairn,
}) => {
  test.setTimeout(120_000);
  await cairn.call('session.create', { title: 'Clock' });
  await cairn.open(page);
  await page.getByTestId('session-row').filter({ hasText: 'Clock' }).click();
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill('/tool get_current_time {"timeZone":"UTC"}');
  await composer.press('Enter');
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');

  // The interim "Calling get_current_time." line has no actions; the question and the final answer have one row each.
  const interim = entryOf(page, messages(page, 'assistant_message').filter({ hasText: 'Calling get_current_time.' }));
  await expect(interim.getByRole('button')).toHaveCount(0);
  await expect(page.getByTestId('message-actions')).toHaveCount(2);
  const answerEntry = page
    .locator('.entry')
    .filter({ has: messages(page, 'assistant_message') })
    .last();
  const answer = answerEntry.getByTestId('message-actions');
  await expect(answer.getByRole('button')).toHaveText(['Copy', 'Copy as plain text', 'Regenerate']);
  const question = entryOf(page, messages(page, 'user_message')).getByTestId('message-actions');
  await expect(question.getByRole('button')).toHaveText(['Copy', 'Copy as plain text', 'Edit', 'Rewind to here']);

  // Hidden until the pointer is over the message or the keyboard reaches it.
  await page.mouse.move(0, 0);
  await expect.poll(() => opacity(answer)).toBe('0');
  await answerEntry.hover();
  await expect.poll(() => opacity(answer)).toBe('1');
  await page.mouse.move(0, 0);
  await expect.poll(() => opacity(answer)).toBe('0');
  await answer.getByRole('button', { name: 'Regenerate' }).focus();
  await page.keyboard.press('Shift+Tab');
  await expect(answer.getByRole('button', { name: 'Copy as plain text' })).toBeFocused();
  await expect.poll(() => opacity(answer)).toBe('1');

  // A WorkHub request is not a message to copy or edit.
  await page.getByTestId('workhub-entry').click();
  const hub = page.getByRole('textbox', { name: 'Ask the WorkHub' });
  await hub.fill('Plan the garden');
  await hub.press('Enter');
  await expect(messages(page, 'user_message')).toHaveText(['Plan the garden']);
  await expect(page.getByTestId('workhub-view').getByRole('button', { name: /^Copy/ })).toHaveCount(0);
});
