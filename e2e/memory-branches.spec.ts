import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { composer, editSecondMessageInBranch, messages } from './branch-steps';
import { expect, test } from './fixtures';

test('Edit on a message of the person creates a branch that runs the edited message, linked both ways', async ({
  page,
  cairn,
}) => {
  await editSecondMessageInBranch(page, cairn);

  // The branch opens: the first exchange copied, then the edited message and its new answer.
  await expect(page.getByTestId('session-title')).toContainText('Trip plans (branch)');
  await expect(page.getByTestId('branch-origin')).toContainText('Branched at an edited message from Trip plans');
  await expect(messages(page, 'user_message')).toHaveText(['Plan a day in Lisbon', 'Add a food market instead']);
  await expect(messages(page, 'assistant_message').last()).toContainText('You said: “Add a food market instead”');

  // Back in the source: unchanged, and the message shows it has another version (the branch).
  await page.getByTestId('branch-origin').getByRole('button', { name: 'Trip plans' }).click();
  await expect(messages(page, 'user_message')).toHaveText(['Plan a day in Lisbon', 'Add a museum']);
  const second = page
    .locator('.entry')
    .filter({ has: messages(page, 'user_message').filter({ hasText: 'Add a museum' }) });
  await expect(second.getByRole('group', { name: 'Version 1 of 2' })).toBeVisible();
});

test('the Memory view lists what the agent remembered, and edits and deletes it', async ({ page, cairn }) => {
  const workspace = mkdtempSync(join(tmpdir(), 'cairn-e2e-memory-'));
  try {
    await cairn.call('session.create', { title: 'Notes', workspacePath: workspace });
    await cairn.open(page);
    await page.getByTestId('session-row').filter({ hasText: 'Notes' }).click();
    const said = ['/remember The staging server is called kestrel', '/remember global Answer in British English'];
    for (const [index, text] of said.entries()) {
      await composer(page).fill(text);
      await composer(page).press('Enter');
      await expect(messages(page, 'assistant_message').filter({ hasText: 'remember returned' })).toHaveCount(index + 1);
    }

    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    await settings.getByRole('tab', { name: 'Memory' }).click();
    const rows = settings.getByTestId('memory-row');
    await expect(rows).toHaveCount(2);
    const staging = rows.filter({ hasText: 'kestrel' });
    await expect(staging).toContainText('Workspace');
    await expect(staging.getByRole('button', { name: 'Notes' })).toBeVisible();

    await staging.getByRole('button', { name: 'Edit' }).click();
    await settings.getByRole('textbox', { name: 'Memory text' }).fill('The staging server is called osprey');
    await settings.getByRole('button', { name: 'Save' }).click();
    const edited = rows.filter({ hasText: 'osprey' });
    await expect(edited).toContainText('Edited by you');
    const { memories } = await cairn.call('memory.list', { query: 'osprey' });
    expect(memories[0]).toMatchObject({ text: 'The staging server is called osprey', editedBy: 'person', revision: 2 });

    await rows.filter({ hasText: 'British' }).getByRole('button', { name: 'Delete' }).click();
    await expect(rows).toHaveCount(1);
    expect((await cairn.call('memory.list', {})).memories.map((memory) => memory.text)).toEqual([
      'The staging server is called osprey',
    ]);
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
});
