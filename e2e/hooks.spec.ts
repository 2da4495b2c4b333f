import type { Page } from '@playwright/test';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';

let workspace: string;
test.beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'cairn-e2e-hooks-'));
});
test.afterEach(() => rmSync(workspace, { recursive: true, force: true }));

const GUARD = `input=$(cat); case "$input" in *'rm -rf'*) echo 'rm -rf is not allowed here' >&2; exit 2;; esac`;

async function send(page: Page, text: string): Promise<void> {
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill(text);
  await composer.press('Enter');
}

test('a PreToolUse hook blocks rm -rf, shown in the transcript; a workspace hook waits in Settings → Hooks until trusted', async ({
  page,
  cairn,
}) => {
  writeFileSync(join(workspace, 'x'), 'keep me');
  writeFileSync(
    join(cairn.dataDir, 'hooks.json'),
    JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: GUARD }] }] } }),
  );
  mkdirSync(join(workspace, '.claude'));
  writeFileSync(
    join(workspace, '.claude', 'settings.json'),
    JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo finished' }] }] } }),
  );
  await cairn.call('session.create', { title: 'Guarded', workspacePath: workspace, permissionMode: 'full' });
  await cairn.open(page);
  await page.getByTestId('session-row').filter({ hasText: 'Guarded' }).click();

  await send(page, '/tool run_shell {"command":"rm -rf x"}');
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');
  const call = page.locator('[data-testid="tool-call"][data-tool="run_shell"]').last();
  await expect(call).toHaveAttribute('data-status', 'failed');
  await expect(call).toContainText('Blocked by the PreToolUse hook');
  await expect(page.getByText(`PreToolUse hook blocked: ${GUARD} — rm -rf is not allowed here`)).toBeVisible();
  expect(readFileSync(join(workspace, 'x'), 'utf8')).toBe('keep me');
  // The workspace's Stop hook is not trusted: it did not run.
  await expect(page.getByText(/Stop hook/)).toHaveCount(0);

  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await page.getByRole('tab', { name: 'Hooks' }).click();
  const settings = page.getByTestId('hooks-settings');
  const waiting = settings.getByTestId('hooks-untrusted');
  await expect(waiting).toContainText('A hook in this workspace waits for your trust.');
  await expect(waiting).toContainText('Stop: echo finished');
  await waiting.getByRole('button', { name: 'Trust these hooks' }).click();
  await expect(waiting).toHaveCount(0);
  const stopRow = settings.getByTestId('hook-row').filter({ hasText: 'echo finished' });
  await expect(stopRow.getByRole('switch')).toBeChecked();
  await stopRow.getByRole('button', { name: 'Test' }).click();
  await expect(stopRow.getByTestId('hook-test-result')).toContainText('Goes on (exit 0)');
  await expect(stopRow.getByTestId('hook-test-result')).toContainText('finished');
  await page.keyboard.press('Escape');

  // Trusted now: the next turn's end runs it, and the transcript shows it.
  await send(page, 'hello');
  await expect(page.getByText('Stop hook ran (exit 0): echo finished — finished')).toBeVisible();
});
