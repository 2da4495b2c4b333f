import type { Page } from '@playwright/test';
import { editSecondMessageInBranch, messages } from './branch-steps';
import { expect, test } from './fixtures';

const switcher = (page: Page) => page.getByTestId('version-switch');

test('an edited message switches in place between its versions: ‹ opens the original at that message, › comes back', async ({
  page,
  cairn,
}) => {
  await editSecondMessageInBranch(page, cairn);

  // The branch: its edited message is version 2 of 2, the only switch on the page.
  await expect(page.getByTestId('session-title')).toContainText('Trip plans (branch)');
  await expect(messages(page, 'assistant_message').last()).toContainText('You said: “Add a food market instead”');
  await expect(switcher(page)).toHaveCount(1);
  const edited = page
    .locator('.entry')
    .filter({ has: messages(page, 'user_message').filter({ hasText: 'Add a food market instead' }) });
  await expect(edited.getByRole('group', { name: 'Version 2 of 2' })).toBeVisible();
  await expect(edited.getByRole('button', { name: 'Next version' })).toBeDisabled();

  // ‹ opens the original at that message, showing the original text.
  await edited.getByRole('button', { name: 'Previous version' }).click();
  await expect(page.getByTestId('session-title')).toHaveText('Trip plans');
  await expect(messages(page, 'user_message')).toHaveText(['Plan a day in Lisbon', 'Add a museum']);
  const original = page
    .locator('.entry')
    .filter({ has: messages(page, 'user_message').filter({ hasText: 'Add a museum' }) });
  await expect(original.getByRole('group', { name: 'Version 1 of 2' })).toBeVisible();
  await expect(original.getByRole('button', { name: 'Previous version' })).toBeDisabled();
  // The switch there has the focus: the keyboard goes on from it.
  await expect(original.getByRole('button', { name: 'Next version' })).toBeFocused();
  await page.keyboard.press('Enter');

  // › comes back to the branch.
  await expect(page.getByTestId('session-title')).toContainText('Trip plans (branch)');
  await expect(messages(page, 'user_message')).toHaveText(['Plan a day in Lisbon', 'Add a food market instead']);
  await expect(edited.getByRole('group', { name: 'Version 2 of 2' })).toBeVisible();
  await expect(edited.getByRole('button', { name: 'Previous version' })).toBeFocused();

  // The sidebar lists the branch under its origin, indented, in a group that closes to a count.
  const sessionList = page.getByRole('list', { name: /^Session list/ });
  await expect(sessionList.locator(':scope > [data-testid="session-row"]')).toHaveText([/^Trip plans/]);
  const branches = page.getByRole('list', { name: 'Branches of Trip plans' });
  await expect(branches.getByTestId('session-row')).toHaveText([/^Trip plans \(branch\)/]);
  await expect(branches.locator('.session-row.is-selected')).toHaveCount(1);
  const toggle = page.getByTestId('branch-group-toggle');
  await expect(toggle).toHaveText('1 branch');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(branches).toBeHidden();
  await toggle.click();
  await expect(branches.getByTestId('session-row')).toHaveCount(1);
});
