import type { Page } from '@playwright/test';
import { expect, type CairnHost } from './fixtures';

export const composer = (page: Page) => page.getByRole('textbox', { name: 'Message' });
export const messages = (page: Page, kind: string) => page.locator(`[data-testid="message"][data-kind="${kind}"]`);

/** "Trip plans": two exchanges with the Offline demo, then its second message edited and sent in a branch. */
export async function editSecondMessageInBranch(page: Page, cairn: CairnHost): Promise<void> {
  await cairn.call('session.create', { title: 'Trip plans' });
  await cairn.open(page);
  await page.getByTestId('session-row').filter({ hasText: 'Trip plans' }).click();
  for (const text of ['Plan a day in Lisbon', 'Add a museum']) {
    await composer(page).fill(text);
    await composer(page).press('Enter');
    await expect(messages(page, 'assistant_message').last()).toContainText(`You said: “${text}”`);
  }
  const second = page
    .locator('.entry')
    .filter({ has: messages(page, 'user_message').filter({ hasText: 'Add a museum' }) });
  await second.getByRole('button', { name: 'Edit' }).click();
  await page.getByRole('textbox', { name: 'Edited message' }).fill('Add a food market instead');
  await page.getByRole('button', { name: 'Send in a branch' }).click();
}
