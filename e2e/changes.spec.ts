import type { Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';

let workspace: string;
test.beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'cairn-e2e-changes-'));
  writeFileSync(join(workspace, 'notes.md'), 'line one\nline two\n');
});
test.afterEach(() => rmSync(workspace, { recursive: true, force: true }));

async function send(page: Page, text: string): Promise<void> {
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill(text);
  await composer.press('Enter');
}

test('Changes: a turn writes two files and a command deletes one; Revert this turn restores them', async ({
  page,
  cairn,
}, testInfo) => {
  // Checkpoints run git on the workspace; on a loaded machine that takes seconds.
  test.setTimeout(120_000);
  await cairn.call('session.create', { title: 'Undo a turn', workspacePath: workspace, permissionMode: 'full' });
  await cairn.open(page);
  await page.getByTestId('session-row').filter({ hasText: 'Undo a turn' }).click();
  await expect(page.getByTestId('workspace-path')).toHaveText(workspace);

  const calls = [
    ['write_file', { path: 'src/app.ts', content: 'export const app = 1;\nexport const two = 2;\n' }],
    ['write_file', { path: 'README.txt', content: 'Read me\n' }],
    ['run_shell', { command: 'rm notes.md' }],
  ];
  await send(page, `/tools ${JSON.stringify(calls)}`);
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed', { timeout: 60_000 });
  expect(existsSync(join(workspace, 'notes.md'))).toBe(false);

  await page.getByTestId('changes-button').click();
  const panel = page.getByTestId('changes-panel');
  const turn = panel.getByTestId('change-set').first();
  await expect(turn).toHaveAttribute('data-status', 'complete', { timeout: 60_000 });
  const files = turn.getByTestId('change-file');
  await expect(files).toHaveCount(3);
  await expect(turn.locator('[data-path="src/app.ts"]')).toHaveAttribute('data-change', 'created');
  await expect(turn.locator('[data-path="src/app.ts"]')).toContainText('+2');
  await expect(turn.locator('[data-path="src/app.ts"]')).toContainText('write_file');
  await expect(turn.locator('[data-path="README.txt"]')).toHaveAttribute('data-change', 'created');
  await expect(turn.locator('[data-path="notes.md"]')).toHaveAttribute('data-change', 'deleted');
  await expect(turn.locator('[data-path="notes.md"]')).toContainText('command');
  await expect(turn.locator('[data-path="notes.md"] .change-writer')).toHaveAttribute(
    'title',
    'Changed by the command: rm notes.md',
  );
  await turn
    .locator('[data-path="notes.md"]')
    .getByRole('button', { name: /notes\.md/ })
    .click();
  await expect(turn.locator('[data-path="notes.md"]').getByTestId('tool-diff')).toContainText('-line two');
  await page.screenshot({ path: testInfo.outputPath('changes-panel.png') });

  await turn.getByRole('button', { name: 'Revert this turn' }).click();
  // The revert shows as a change set of its own, newest first, which can undo it.
  const revert = panel.getByTestId('change-set').first();
  await expect(revert).toContainText('Revert of', { timeout: 60_000 });
  await expect(revert.getByRole('button', { name: 'Undo this revert' })).toBeVisible();
  expect(readFileSync(join(workspace, 'notes.md'), 'utf8')).toBe('line one\nline two\n');
  expect(existsSync(join(workspace, 'src', 'app.ts'))).toBe(false);
  expect(existsSync(join(workspace, 'README.txt'))).toBe(false);
  // The reverted turn offers no Revert this turn (or Revert file) again: there is nothing left to revert.
  const reverted = panel.getByTestId('change-set').nth(1);
  await expect(reverted).toContainText('3 files, reverted');
  await expect(reverted.getByRole('button', { name: 'Revert this turn' })).toHaveCount(0);
  await expect(reverted.getByRole('button', { name: 'Revert file' })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('changes-reverted.png') });

  // A turn that writes more files than the listing carries shows the first ones, and Show all the rest.
  await send(
    page,
    `/tool run_shell ${JSON.stringify({ command: 'mkdir many && for i in $(seq 10 54); do echo "line $i" > many/f$i.txt; done' })}`,
  );
  const many = panel.getByTestId('change-set').first();
  await expect(many).toContainText('45 files', { timeout: 60_000 });
  await expect(many).toContainText('+45 −0');
  await expect(many.getByTestId('change-file')).toHaveCount(30);
  await expect(many.getByTestId('change-file').last()).toHaveAttribute('data-path', 'many/f39.txt');
  await many.getByRole('button', { name: 'Show all 45 files' }).click();
  await expect(many.getByTestId('change-file')).toHaveCount(45);
  await expect(many.getByRole('button', { name: /Show all/ })).toHaveCount(0);
  const last = many.locator('[data-path="many/f54.txt"]');
  await expect(last).toContainText('command');
  await last.getByRole('button', { name: /many\/f54\.txt/ }).click();
  await expect(last.getByTestId('tool-diff')).toContainText('+line 54');
  // Revert this turn reverts every file, not only those listed first.
  await many.getByRole('button', { name: 'Revert this turn' }).click();
  await expect(panel.getByTestId('change-set').first()).toContainText('Revert of', { timeout: 60_000 });
  expect(existsSync(join(workspace, 'many', 'f54.txt'))).toBe(false);
  expect(existsSync(join(workspace, 'many', 'f10.txt'))).toBe(false);
});

test('Changes: counts agree with the transcript; an edit since is not overwritten (Keep mine); an undo is named an undo; a failed write says so', async ({
  page,
  cairn,
}, testInfo) => {
  test.setTimeout(150_000);
  await cairn.call('session.create', { title: 'Conflict', workspacePath: workspace, permissionMode: 'full' });
  await cairn.open(page);
  await page.getByTestId('session-row').filter({ hasText: 'Conflict' }).click();
  await send(
    page,
    `/tools ${JSON.stringify([
      ['write_file', { path: 'notes.md', content: 'agent\n' }],
      ['write_file', { path: 'new.txt', content: 'new\n' }],
    ])}`,
  );
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed', { timeout: 60_000 });
  // One counting rule: the transcript counts the replaced file as git does in Changes (+1 −2), not its whole content as added.
  const written = page.locator('[data-testid="tool-call"][data-tool="write_file"]').filter({ hasText: 'notes.md' });
  await expect(written.locator('.tool-call-counts')).toHaveText('+1 −2');
  await page.getByTestId('changes-button').click();
  const panel = page.getByTestId('changes-panel');
  const turn = panel.getByTestId('change-set').first();
  // The person edits the file once the turn's change set is recorded (its after-state is taken just
  // after the turn ends; an edit made before that is counted in the turn — see docs/undo.md).
  await expect(turn).toHaveAttribute('data-status', 'complete', { timeout: 60_000 });
  await expect(turn.locator('[data-path="notes.md"] .change-lines')).toHaveText('+1 −2');
  writeFileSync(join(workspace, 'notes.md'), 'mine\n');

  await turn.getByRole('button', { name: 'Revert this turn' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading')).toHaveText('You changed this file after the turn did');
  await expect(dialog.getByTestId('revert-conflict-files')).toHaveText('notes.md');
  await expect(dialog.getByRole('button', { name: 'Open both' })).toBeVisible();
  // The four choices sit inside the dialog, each label on one line.
  const box = await dialog.boundingBox();
  for (const name of ['Cancel', 'Keep mine', 'Open both', 'Take checkpoint']) {
    const button = await dialog.getByRole('button', { name }).boundingBox();
    expect(
      button !== null &&
        box !== null &&
        button.x >= box.x &&
        button.x + button.width <= box.x + box.width &&
        button.height < 40,
    ).toBe(true);
  }
  await page.screenshot({ path: testInfo.outputPath('revert-conflict.png') });
  await dialog.getByRole('button', { name: 'Keep mine' }).click();
  const revert = panel.getByTestId('change-set').first();
  await expect(revert).toContainText('Revert of', { timeout: 60_000 });
  expect(readFileSync(join(workspace, 'notes.md'), 'utf8')).toBe('mine\n');
  expect(existsSync(join(workspace, 'new.txt'))).toBe(false);

  // Undo this revert is an undo: named so in Changes and in its notice; the undone revert offers no Undo again.
  await revert.getByRole('button', { name: 'Undo this revert' }).click();
  await expect(page.locator('.toast[data-tone="info"]').last()).toHaveText(
    /Undid the revert of “\/tools.*”: 1 file put back\./,
    { timeout: 60_000 },
  );
  const undo = panel.getByTestId('change-set').first();
  await expect(undo).toHaveAttribute('data-kind', 'undo', { timeout: 60_000 });
  await expect(undo.getByRole('heading')).toContainText('Undo of the revert of');
  expect(existsSync(join(workspace, 'new.txt'))).toBe(true);
  const undone = panel.getByTestId('change-set').nth(1);
  await expect(undone.getByRole('heading')).toContainText('Revert of');
  await expect(undone.getByRole('heading')).toContainText('1 file, undone');
  await expect(undone.getByRole('button')).toHaveCount(1); // only its file's row toggle: no Undo, no Revert file
  await expect(undo.getByRole('button', { name: /Undo|Revert/ })).toHaveCount(0);

  // A turn whose edit failed (its search text is not in the file) says what happened instead of "0 files".
  await send(
    page,
    `/tools ${JSON.stringify([['edit_file', { path: 'notes.md', search: 'not in the file', replace: 'x' }]])}`,
  );
  await expect(panel.getByTestId('change-set')).toHaveCount(4, { timeout: 60_000 });
  const failed = panel.getByTestId('change-set').first();
  await expect(failed).toHaveAttribute('data-status', 'complete', { timeout: 60_000 });
  await expect(failed.getByRole('heading')).toContainText('no file changed');
  await expect(failed).toContainText('changed no file: each write failed');
  await expect(failed).not.toContainText('0 files');
});

test('Rewind to here: files and conversation go back to before a turn, in a branch; a rewind inside that branch goes back through the source’s turns; each Undo puts back only its own', async ({
  page,
  cairn,
}, testInfo) => {
  test.setTimeout(180_000);
  // A git workspace, as people use it (checkpoints never touch its own .git).
  const git = (...args: string[]) => execFileSync('git', args, { cwd: workspace, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.name=Person', '-c', 'user.email=person@example.invalid', 'commit', '-q', '-m', 'start');
  const notes = () => readFileSync(join(workspace, 'notes.md'), 'utf8');
  const extra = () => existsSync(join(workspace, 'extra.txt'));
  await cairn.call('session.create', { title: 'Rewind me', workspacePath: workspace, permissionMode: 'full' });
  await cairn.open(page);
  await page.getByTestId('session-row').filter({ hasText: 'Rewind me' }).click();
  const first = `/tools ${JSON.stringify([['write_file', { path: 'notes.md', content: 'first turn\n' }]])}`;
  const second = `/tools ${JSON.stringify([
    ['write_file', { path: 'notes.md', content: 'second turn\n' }],
    ['write_file', { path: 'extra.txt', content: 'extra\n' }],
  ])}`;
  for (const text of [first, second]) {
    await send(page, text);
    await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed', {
      timeout: 60_000,
    });
  }
  await page.getByTestId('changes-button').click();
  await expect(page.getByTestId('changes-panel').getByTestId('change-set')).toHaveCount(2, { timeout: 60_000 });
  await expect(page.getByTestId('changes-panel').getByTestId('change-set').first()).toHaveAttribute(
    'data-status',
    'complete',
    { timeout: 60_000 },
  );
  await page.getByTestId('changes-panel').getByRole('button', { name: 'Close changes' }).click();

  const mine = page.locator('[data-testid="message"][data-kind="user_message"]');
  const rewindButtonAt = (text: string) =>
    page
      .locator('.entry')
      .filter({ has: mine.filter({ hasText: text }) })
      .getByRole('button', { name: 'Rewind to here' });
  const preview = page.getByRole('dialog', { name: 'Rewind to before this message?' });
  /** Rewind to here, then Rewind in its preview. */
  const rewindAt = async (text: string) => {
    await rewindButtonAt(text).click();
    await preview.getByRole('button', { name: 'Rewind' }).click({ timeout: 60_000 });
  };
  const rewindButton = rewindButtonAt('second turn');
  // Rewind shows what it will do first; Cancel writes nothing and makes no branch.
  await rewindButton.click();
  await expect(preview.getByTestId('rewind-preview')).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  await expect(preview.locator('[data-action="change"] [data-testid="rewind-preview-file"]')).toHaveText(['notes.md']);
  await expect(preview.locator('[data-action="delete"] [data-testid="rewind-preview-file"]')).toHaveText(['extra.txt']);
  await expect(preview.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.screenshot({ path: testInfo.outputPath('rewind-preview.png') });
  await page.keyboard.press('Escape');
  await expect(preview).toBeHidden();
  await expect(rewindButton).toBeFocused();
  expect(readFileSync(join(workspace, 'notes.md'), 'utf8')).toBe('second turn\n');
  expect(existsSync(join(workspace, 'extra.txt'))).toBe(true);
  await expect(page.getByTestId('session-title')).toHaveText('Rewind me');
  // From the keyboard: open it again, Tab from Cancel to Rewind, Enter.
  await rewindButton.press('Enter');
  await expect(preview.getByRole('button', { name: 'Rewind' })).toBeEnabled({ timeout: 60_000 });
  await page.keyboard.press('Tab');
  await expect(preview.getByRole('button', { name: 'Rewind' })).toBeFocused();
  await page.keyboard.press('Enter');

  // The branch opens with the first turn only, and its Changes panel shows the rewind.
  await expect(page.getByTestId('session-title')).toContainText('Rewind me (rewound)', { timeout: 60_000 });
  await expect(page.getByTestId('branch-origin')).toContainText('Rewound to before a message of Rewind me');
  await expect(mine).toHaveCount(1);
  await expect(mine).toContainText('first turn');
  const rewind = page.getByTestId('changes-panel').getByTestId('change-set').first();
  await expect(rewind).toContainText('Rewind to before');
  await expect(rewind.getByTestId('change-file')).toHaveCount(2);
  // Below it, what the copied first turn did (its checkpoint is the source's).
  await expect(page.getByTestId('changes-panel').getByTestId('change-set')).toHaveCount(2);
  const copied = page.getByTestId('changes-panel').getByTestId('change-set').last();
  await expect(copied).toContainText('Turn “/tools');
  await expect(copied.getByRole('button', { name: 'Revert this turn' })).toBeVisible();
  expect(notes()).toBe('first turn\n');
  expect(extra()).toBe(false);
  await page.screenshot({ path: testInfo.outputPath('rewound.png') });

  // Inside the rewound branch, Rewind to here on its first message: the files go back to before the
  // first turn (whose checkpoint is the source's), and extra.txt is not brought back.
  await page.getByTestId('changes-panel').getByRole('button', { name: 'Close changes' }).click();
  await rewindAt('first turn');
  await expect(page.getByTestId('branch-origin')).toContainText('Rewound to before a message of Rewind me (rewound)', {
    timeout: 60_000,
  });
  await expect(mine).toHaveCount(0);
  const deeper = page.getByTestId('changes-panel').getByTestId('change-set').first();
  await expect(deeper).toContainText('Rewind to before');
  await expect(deeper.getByTestId('change-file')).toHaveCount(1);
  await expect(deeper.locator('[data-path="notes.md"]')).toHaveAttribute('data-change', 'modified');
  expect(notes()).toBe('line one\nline two\n');
  expect(extra()).toBe(false);
  await page.screenshot({ path: testInfo.outputPath('rewound-twice.png') });

  // Its Undo puts back only what it took: the first turn's notes, still no extra.txt.
  await deeper.getByRole('button', { name: 'Undo this rewind' }).click();
  await expect(page.getByTestId('changes-panel').getByTestId('change-set').first()).toContainText(
    'Undo of the rewind to before',
    { timeout: 60_000 },
  );
  expect(notes()).toBe('first turn\n');
  expect(extra()).toBe(false);

  // Back in the first branch, Undo this rewind puts the second turn forward again.
  await page.getByTestId('changes-panel').getByRole('button', { name: 'Close changes' }).click();
  await page.getByTestId('branch-origin').getByRole('button', { name: 'Rewind me (rewound)' }).click();
  await expect(mine).toHaveCount(1);
  await page.getByTestId('changes-button').click();
  await page
    .getByTestId('changes-panel')
    .getByTestId('change-set')
    .first()
    .getByRole('button', { name: 'Undo this rewind' })
    .click();
  await expect(page.getByTestId('changes-panel').getByTestId('change-set').first()).toContainText(
    'Undo of the rewind to before',
    { timeout: 60_000 },
  );
  // The undone rewind offers no Undo again.
  const undoneRewind = page.getByTestId('changes-panel').locator('[data-kind="rewind"]');
  await expect(undoneRewind.getByRole('heading')).toContainText('undone');
  await expect(undoneRewind.getByRole('button', { name: 'Undo this rewind' })).toHaveCount(0);
  expect(notes()).toBe('second turn\n');
  expect(extra()).toBe(true);

  // The source session still has both turns.
  await page.getByTestId('changes-panel').getByRole('button', { name: 'Close changes' }).click();
  await page.getByTestId('branch-origin').getByRole('button', { name: 'Rewind me' }).click();
  await expect(mine).toHaveCount(2);
});
