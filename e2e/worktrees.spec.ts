import type { Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';

const IDENTITY = {
  GIT_AUTHOR_NAME: 'Person',
  GIT_AUTHOR_EMAIL: 'person@example.invalid',
  GIT_COMMITTER_NAME: 'Person',
  GIT_COMMITTER_EMAIL: 'person@example.invalid',
};

let repo: string;
const git = (...args: string[]) =>
  execFileSync('git', args, { cwd: repo, env: { ...process.env, ...IDENTITY }, encoding: 'utf8' }).trim();
test.beforeEach(() => {
  repo = realpathSync(mkdtempSync(join(tmpdir(), 'cairn-e2e-worktrees-')));
  git('init', '--quiet', '--initial-branch=main');
  writeFileSync(join(repo, 'notes.md'), 'alpha\nbeta\n');
  git('add', '--all');
  git('commit', '--quiet', '-m', 'start');
});
test.afterEach(() => rmSync(repo, { recursive: true, force: true }));

async function writeNotes(page: Page, title: string, content: string): Promise<void> {
  await page.getByTestId('session-row').filter({ hasText: title }).click();
  await expect(page.getByTestId('branch-chip')).toContainText('cairn/', { timeout: 30_000 });
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill(`/tools ${JSON.stringify([['write_file', { path: 'notes.md', content }]])}`);
  await composer.press('Enter');
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed', { timeout: 60_000 });
}

test('Worktrees: two sessions edit one file; the first merges back, the second shows the conflict and leaves the repository as it was, then merges once resolved', async ({
  page,
  cairn,
}, testInfo) => {
  // Real git in a real repository, twice over; on a loaded machine that takes seconds.
  test.setTimeout(180_000);
  await cairn.call('session.create', {
    title: 'First edit',
    workspacePath: repo,
    permissionMode: 'full',
    ownWorktree: true,
  });
  await cairn.call('session.create', {
    title: 'Second edit',
    workspacePath: repo,
    permissionMode: 'full',
    ownWorktree: true,
  });
  await cairn.open(page);

  await writeNotes(page, 'First edit', 'alpha\nfirst\n');
  await writeNotes(page, 'Second edit', 'alpha\nsecond\n');
  expect(readFileSync(join(repo, 'notes.md'), 'utf8')).toBe('alpha\nbeta\n');

  await page.getByTestId('session-row').filter({ hasText: 'First edit' }).click();
  await expect(page.getByTestId('branch-chip')).toHaveText(/^cairn\/first-edit-[0-9a-f]{4}$/);
  await page.getByTestId('changes-button').click();
  const section = page.getByTestId('worktree-section');
  await expect(section.getByTestId('worktree-file')).toHaveCount(1, { timeout: 30_000 });
  await section.getByRole('button', { name: /notes\.md/ }).click();
  await expect(section.getByTestId('tool-diff')).toContainText('+first');
  await section.getByRole('button', { name: 'Open folder' }).click();
  await expect(section.getByTestId('worktree-path')).toContainText('worktrees');
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    for (const width of [1280, 900]) {
      await page.setViewportSize({ width, height: 800 });
      await page.screenshot({ path: testInfo.outputPath(`worktree-${width}-${colorScheme}.png`) });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await section.getByTestId('worktree-merge').click();
  await expect(page.getByTestId('branch-chip')).toHaveCount(0, { timeout: 60_000 });
  expect(readFileSync(join(repo, 'notes.md'), 'utf8')).toBe('alpha\nfirst\n');

  const before = {
    head: git('rev-parse', 'HEAD'),
    status: git('status', '--porcelain'),
    notes: readFileSync(join(repo, 'notes.md'), 'utf8'),
  };
  await page.getByTestId('session-row').filter({ hasText: 'Second edit' }).click();
  await expect(page.getByTestId('branch-chip')).toContainText('cairn/second-edit-');
  if ((await page.getByTestId('changes-panel').count()) === 0) await page.getByTestId('changes-button').click();
  await page.getByTestId('worktree-merge').click();
  const conflict = page.getByTestId('worktree-conflict');
  await expect(conflict).toContainText('notes.md', { timeout: 60_000 });
  await expect(conflict).toContainText('Nothing in');
  await page.screenshot({ path: testInfo.outputPath('worktree-conflict.png') });
  expect({
    head: git('rev-parse', 'HEAD'),
    status: git('status', '--porcelain'),
    notes: readFileSync(join(repo, 'notes.md'), 'utf8'),
  }).toEqual(before);
  await expect(page.getByTestId('branch-chip')).toBeVisible();

  // The person brings main in, resolves the conflict in the worktree, and merges back: both edits land.
  await page.getByRole('button', { name: 'Bring main in' }).click();
  await expect(conflict).toContainText('conflict markers in the worktree', { timeout: 60_000 });
  if ((await page.getByTestId('worktree-path').count()) === 0)
    await page.getByTestId('worktree-section').getByRole('button', { name: 'Open folder' }).click();
  const worktreeFolder = (await page.getByTestId('worktree-path').locator('code').textContent()) ?? '';
  expect(readFileSync(join(worktreeFolder, 'notes.md'), 'utf8')).toContain('<<<<<<<');
  writeFileSync(join(worktreeFolder, 'notes.md'), 'alpha\nfirst\nsecond\n');
  await page.getByTestId('worktree-merge').click();
  await expect(page.getByTestId('branch-chip')).toHaveCount(0, { timeout: 60_000 });
  expect(readFileSync(join(repo, 'notes.md'), 'utf8')).toBe('alpha\nfirst\nsecond\n');
  expect(git('status', '--porcelain')).toBe('');
});

test('Worktrees: those left behind by deleted sessions are listed; Keep stops listing one for good, Discard removes its folder and branch', async ({
  page,
  cairn,
}, testInfo) => {
  test.setTimeout(120_000);
  const { session } = await cairn.call('session.create', {
    title: 'Gone soon',
    workspacePath: repo,
    ownWorktree: true,
  });
  const kept = (await cairn.call('session.create', { title: 'Kept as is', workspacePath: repo, ownWorktree: true }))
    .session;
  await cairn.call('session.remove', { sessionId: kept.sessionId });
  await cairn.call('session.create', { title: 'Still here', workspacePath: repo, permissionMode: 'full' });
  await cairn.open(page);
  await page.getByTestId('session-row').filter({ hasText: 'Still here' }).click();
  const notice = page.getByTestId('worktree-leftovers');
  await expect(notice).toContainText('A worktree was left behind.', { timeout: 30_000 });

  // Deleting a session in a worktree says what becomes of the worktree; the notice lists it at once, without a reload.
  const gone = page.getByTestId('session-row').filter({ hasText: 'Gone soon' });
  await gone.hover();
  await gone.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete this session?' });
  await expect(dialog.getByTestId('delete-worktree-note')).toContainText('cairn/gone-soon-', { timeout: 30_000 });
  await expect(dialog).toHaveAccessibleDescription(/The worktree is not deleted with it/);
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(notice).toContainText('2 worktrees were left behind', { timeout: 30_000 });
  await expect(notice).toContainText('its session was deleted');
  await page.screenshot({ path: testInfo.outputPath('worktree-leftovers.png') });
  await notice
    .getByRole('listitem')
    .filter({ hasText: 'cairn/kept-as-is-' })
    .getByRole('button', { name: 'Keep' })
    .click();
  await expect(notice).toContainText('A worktree was left behind.');
  // Kept for good: a reload asks the host again, and the kept one is not listed.
  await page.reload();
  await page.getByTestId('session-row').filter({ hasText: 'Still here' }).click();
  await expect(notice).toContainText('cairn/gone-soon-', { timeout: 30_000 });
  await expect(notice).not.toContainText('cairn/kept-as-is-');
  expect(existsSync(kept.workspacePath ?? '')).toBe(true);
  // Discard asks first; Cancel leaves it listed.
  await notice.getByRole('button', { name: 'Discard' }).click();
  await notice.getByTestId('leftover-confirm').getByRole('button', { name: 'Cancel' }).click();
  await expect(notice).toContainText('cairn/gone-soon-');
  expect(existsSync(session.workspacePath ?? '')).toBe(true);
  await notice.getByRole('button', { name: 'Discard' }).click();
  await expect(notice.getByTestId('leftover-confirm')).toContainText('Delete its folder and branch');
  await notice.getByRole('button', { name: 'Discard for good' }).click();
  await expect(notice).toHaveCount(0, { timeout: 60_000 });
  expect(existsSync(session.workspacePath ?? '')).toBe(false);
  expect(git('branch', '--list', 'cairn/*')).toMatch(/^[+*]?\s*cairn\/kept-as-is-\S+$/);

  // A session on a folder in a git repository is offered a worktree of its own.
  await page.getByTestId('workspace-bar').getByRole('button', { name: 'Own worktree' }).click();
  await expect(page.getByTestId('branch-chip')).toContainText('cairn/still-here-', { timeout: 60_000 });
  await expect(page.getByTestId('workspace-path')).toContainText('worktrees');
  expect(git('branch', '--list', 'cairn/*')).toContain('cairn/still-here-');

  // A turn writes in the worktree; once it is discarded, its entry in Changes says the worktree is
  // gone and offers no revert (the folder its checkpoints would write to no longer exists).
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill(`/tools ${JSON.stringify([['write_file', { path: 'notes.md', content: 'alpha\nworktree\n' }]])}`);
  await composer.press('Enter');
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed', { timeout: 60_000 });
  await page.getByTestId('changes-button').click();
  const turn = page.getByTestId('changes-panel').getByTestId('change-set').first();
  await expect(turn).toHaveAttribute('data-status', 'complete', { timeout: 60_000 });
  await expect(turn.getByRole('button', { name: 'Revert this turn' })).toBeVisible();
  await page.getByTestId('worktree-section').getByRole('button', { name: 'Discard worktree' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Discard worktree' }).click();
  await expect(page.getByTestId('branch-chip')).toHaveCount(0, { timeout: 60_000 });
  await expect(turn.getByTestId('change-set-gone')).toContainText('was discarded', { timeout: 30_000 });
  await expect(turn.getByRole('button', { name: /Revert/ })).toHaveCount(0);
  await turn.getByRole('button', { name: /notes\.md/ }).click();
  await expect(turn.getByTestId('tool-diff')).toContainText('+worktree');
  await page.screenshot({ path: testInfo.outputPath('worktree-discarded-changes.png') });
});
