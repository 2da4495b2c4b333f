import type { Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';

// The host starts (tsx) inside each test's time; on a loaded two-core machine that alone can take most of a minute.
test.describe.configure({ timeout: 150_000 });

test('Search snippets read as plain text and long titles end in an ellipsis; a rewound branch in a deep folder: the folder name stays in sight, the Commands and Changes panels leave the composer and the way back uncovered, and a notice floats over the app', async ({
  page,
  cairn,
}) => {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'cairn-e2e-layout-')));
  const repo = join(
    base,
    'a-rather-long-folder-of-client-work',
    'another-long-level-of-folders-for-the-year',
    'and-one-more-for-good-measure',
    'notes-project',
  );
  mkdirSync(repo, { recursive: true });
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: repo,
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 'Person',
        GIT_AUTHOR_EMAIL: 'person@example.invalid',
        GIT_COMMITTER_NAME: 'Person',
        GIT_COMMITTER_EMAIL: 'person@example.invalid',
      },
    });
  git('init', '--quiet', '--initial-branch=main');
  writeFileSync(join(repo, 'notes.md'), 'alpha\n');
  git('add', '--all');
  git('commit', '--quiet', '-m', 'start');
  try {
    const { session } = await cairn.call('session.create', { title: 'Deep notes', workspacePath: repo });
    for (const [turnId, text] of [
      ['t1', 'Hello there'],
      ['t2', 'Second thought'],
    ] as const) {
      await cairn.call('turn.start', { sessionId: session.sessionId, turnId, text });
      await expect
        .poll(async () => (await cairn.call('turn.query', { sessionId: session.sessionId, turnId })).turn.status, {
          timeout: 30_000,
        })
        .toBe('completed');
    }
    const { items } = await cairn.call('transcript.page', { sessionId: session.sessionId, limit: 20 });
    const second = items.filter((item) => item.kind === 'user_message')[1];
    const rewound = await cairn.call('session.rewind', {
      sessionId: session.sessionId,
      atItemId: second?.itemId ?? '',
      requestId: 'layout-rewind',
    });
    if (rewound.status !== 'rewound') throw new Error(`expected a rewind, got ${rewound.status}`);

    const long = (
      await cairn.call('session.create', {
        title: 'A session with a rather long title about the quarterly deployment checklist',
      })
    ).session;
    await cairn.call('turn.start', {
      sessionId: long.sessionId,
      turnId: 'md',
      text: 'Check the **deployment** step and `npm run deploy` first',
    });
    await expect
      .poll(async () => (await cairn.call('turn.query', { sessionId: long.sessionId, turnId: 'md' })).turn.status, {
        timeout: 30_000,
      })
      .toBe('completed');

    await page.setViewportSize({ width: 1040, height: 720 });
    await cairn.open(page);

    // Message search: the snippet reads as plain text, and a long title ends in an ellipsis.
    const search = page.getByRole('searchbox', { name: 'Search sessions' });
    await search.fill('deployment');
    const hit = page.getByTestId('message-hit').filter({ hasText: 'You ·' });
    await expect(hit.locator('mark')).toHaveText('deployment');
    await expect(hit.locator('.message-hit-snippet')).toHaveText(
      'You: Check the deployment step and npm run deploy first',
    );
    const title = hit.locator('.message-hit-title-text');
    expect(
      await title.evaluate((element) => [
        getComputedStyle(element).textOverflow,
        element.scrollWidth > element.clientWidth,
      ]),
    ).toEqual(['ellipsis', true]);
    await search.fill('');
    await page.getByTestId('session-row').filter({ hasText: 'Deep notes (rewound)' }).click();
    const wayBack = page.getByTestId('branch-origin').getByRole('button', { name: 'Deep notes' });
    await expect(wayBack).toBeVisible();

    // The path gives way from the folders above: the folder's own name is whole, the full path in the tooltip.
    const path = page.getByTestId('workspace-path');
    await expect(path).toHaveAttribute('title', repo);
    const clipped = (selector: string) =>
      path.locator(selector).evaluate((element) => element.scrollWidth > element.clientWidth);
    expect(await clipped('.workspace-path-parent')).toBe(true);
    expect(await clipped('.workspace-path-name')).toBe(false);
    await expect(path.locator('.workspace-path-name')).toHaveText('notes-project');

    // Each panel opens without covering the composer or the way back to the source session.
    const composer = page.getByRole('textbox', { name: 'Message' });
    const overlaps = async (panel: ReturnType<Page['getByTestId']>, other: ReturnType<Page['getByTestId']>) => {
      const [a, b] = [await panel.boundingBox(), await other.boundingBox()];
      if (a === null || b === null) throw new Error('not on screen');
      return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    };
    for (const name of ['commands', 'changes'] as const) {
      await page.getByTestId(`${name}-button`).click();
      const panel = page.getByTestId(`${name}-panel`);
      await expect(panel).toBeVisible();
      expect(await overlaps(panel, composer), `${name} panel over the composer`).toBe(false);
      expect(await overlaps(panel, wayBack), `${name} panel over the way back`).toBe(false);
      await page.getByTestId(`${name}-button`).click();
      await expect(panel).toHaveCount(0);
    }

    // A notice floats over the app: nothing under it moves.
    const app = page.locator('.app-body');
    const before = await app.boundingBox();
    await page.getByTestId('workspace-bar').getByRole('button', { name: 'Own worktree' }).click();
    const notice = page.locator('.toast').filter({ hasText: 'now works in its own worktree' });
    await expect(notice).toBeVisible({ timeout: 60_000 });
    expect(await app.boundingBox()).toEqual(before);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});
