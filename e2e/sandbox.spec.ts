import type { Locator, Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CairnHost, expect, test } from './fixtures';
import { freePort } from './cairn-host';

/**
 * Auto mode with the real sandbox (the host detects bubblewrap; every other spec's host has it off).
 * The workspace is under /var/tmp: inside the sandbox /tmp is a private folder.
 */
test('a new session starts in Auto: a command writes inside unasked and is blocked outside; a blocked host is allowed from its card and the retry gets through; in Ask the card can run one command without the sandbox', async ({
  page,
}) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cairn-e2e-'));
  const workspace = mkdtempSync('/var/tmp/cairn-e2e-sandbox-');
  const outside = `/var/tmp/cairn-e2e-outside-${randomBytes(6).toString('hex')}`;
  const host = new CairnHost(dataDir, randomBytes(12).toString('base64url'), await freePort(), {
    CAIRN_SANDBOX: 'detect',
  });
  await host.start();
  const served = await serveOnLoopback('SERVED OVER THE PROXY');
  try {
    const { session } = await host.call('session.create', { title: 'Walled', workspacePath: workspace });
    expect(session.permissionMode).toBe('auto');
    await host.open(page);
    await page.getByTestId('session-row').filter({ hasText: 'Walled' }).click();
    const modes = page.getByTestId('permission-mode');
    await expect(modes).toHaveAttribute('data-mode', 'auto');
    await expect(modes.getByRole('radio', { name: /Auto/ })).toHaveAttribute('aria-checked', 'true');
    await expect(page.getByTestId('sandbox-note')).toContainText('Commands run in the sandbox without asking');

    await send(page, `/tool run_shell ${JSON.stringify({ command: `echo inside > made.txt; echo x > ${outside}` })}`);
    const call = page.locator('[data-testid="tool-call"][data-tool="run_shell"]').last();
    await expect(call).toHaveAttribute('data-status', 'failed');
    await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');
    await expect(page.locator('[data-testid="interaction"][data-kind="permission"]')).toHaveCount(0);
    expect(readFileSync(join(workspace, 'made.txt'), 'utf8')).toBe('inside\n');
    expect(existsSync(outside)).toBe(false);
    await expect(
      page.getByText('Blocked by the sandbox: writes are allowed only inside the workspace and /tmp.').first(),
    ).toBeVisible();

    // The network: a host not on the allowlist is blocked (a loopback server, reached by a name);
    // the card allows it for the session, and the agent's retry gets through.
    const fetchIt = `/tool run_shell ${JSON.stringify({ command: `curl -sS --fail http://localhost:${served.port}/` })}`;
    await send(page, fetchIt);
    await expect(call).toHaveAttribute('data-status', 'failed');
    await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');
    const card = page.locator('[data-testid="interaction"][data-kind="network"]').last();
    await expect(card).toHaveAttribute('data-status', 'pending');
    await expect(card.getByRole('heading', { name: 'Allow network to localhost' })).toBeVisible();
    await card.getByRole('button', { name: 'Allow for this session' }).click();
    await expect(card).toHaveAttribute('data-status', 'answered');
    await expect(card).toContainText('Allowed for this session');
    await expect(page.getByTestId('session-hosts')).toContainText('localhost');
    await send(page, fetchIt);
    await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');
    await expect(call).toHaveAttribute('data-status', 'done');
    await expect(call).toContainText('SERVED OVER THE PROXY');

    await modes.getByRole('radio', { name: /Ask/ }).click();
    await expect(modes).toHaveAttribute('data-mode', 'ask');
    await send(page, `/tool run_shell ${JSON.stringify({ command: `echo x > ${outside}` })}`);
    const approval = page.locator('[data-testid="interaction"][data-kind="permission"]').last();
    await expect(approval).toHaveAttribute('data-status', 'pending');
    await expect(approval).toContainText('Allowed, it runs in the sandbox');
    await approval.getByRole('button', { name: 'Run once without sandbox' }).click();
    await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');
    expect(readFileSync(outside, 'utf8')).toBe('x\n');

    // Settings → Sandbox says it is available here.
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByRole('tab', { name: 'Sandbox' }).click();
    await expect(page.getByTestId('sandbox-status')).toContainText('Available: new sessions start in Auto');
    // Its lists: a wrong entry is named and nothing is saved; right ones are kept.
    await page.getByTestId('sandbox-allowedHosts').fill('registry.npmjs.org\nhttps://pypi.org');
    await page.getByTestId('sandbox-writableFolders').fill(dataDir);
    await page.getByRole('button', { name: 'Save lists' }).click();
    await expect(page.getByTestId('sandbox-settings-error')).toContainText('"https://pypi.org" is not a host pattern');
    expect((await host.call('sandbox.settings.get', {})).allowedHosts).toEqual([]);
    await page.getByTestId('sandbox-allowedHosts').fill('registry.npmjs.org\npypi.org');
    await page.getByRole('button', { name: 'Save lists' }).click();
    await expect(page.getByTestId('sandbox-settings-error')).toContainText(
      `"${dataDir}" cannot be a writable folder: it would open Cairn's data directory`,
    );
    await page.getByTestId('sandbox-writableFolders').fill('');
    await page.getByRole('button', { name: 'Save lists' }).click();
    await expect(page.getByText('Saved. The next command uses these lists.')).toBeVisible();
    expect((await host.call('sandbox.settings.get', {})).allowedHosts).toEqual(['registry.npmjs.org', 'pypi.org']);
  } finally {
    await served.close();
    await host.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
    rmSync(outside, { force: true });
  }
});

const artifacts = join(process.cwd(), 'e2e-artifacts');
/** Screenshots of the view at both widths the issue names, light and dark. */
async function shoot(page: Page, name: string, subject: Locator): Promise<void> {
  mkdirSync(artifacts, { recursive: true });
  for (const width of [900, 1280]) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height: width === 900 ? 700 : 800 });
      await page.emulateMedia({ colorScheme: scheme });
      await subject.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(artifacts, `${name}-${width}-${scheme}.png`) });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

const openRow = (page: Page, title: string) =>
  page.getByTestId('session-row').filter({ hasText: title }).locator('.session-row-main').click();

// The `cairn` fixture's host, with the sandbox off: the note says commands are not sandboxed.
test('the unsandboxed-shell note shows only in Ask or Full with a folder, once, and closes for that session', async ({
  page,
  cairn,
}) => {
  test.slow(); // eight screenshots
  const workspace = mkdtempSync(join(tmpdir(), 'cairn-e2e-note-'));
  try {
    await cairn.call('session.create', { title: 'No folder', permissionMode: 'ask' });
    await cairn.call('session.create', {
      title: 'Folder explore',
      permissionMode: 'explore',
      workspacePath: workspace,
    });
    await cairn.call('session.create', { title: 'Folder ask', permissionMode: 'ask', workspacePath: workspace });
    await cairn.open(page);

    await openRow(page, 'No folder');
    await expect(page.getByTestId('session-title')).toHaveText('No folder');
    await expect(page.getByTestId('workspace-bar')).toBeVisible();
    await expect(page.getByTestId('sandbox-note')).toHaveCount(0);

    await openRow(page, 'Folder explore');
    await expect(page.getByTestId('session-title')).toHaveText('Folder explore');
    await expect(page.getByTestId('sandbox-note')).toHaveCount(0);

    await openRow(page, 'Folder ask');
    const note = page.getByTestId('sandbox-note');
    await expect(note).toHaveCount(1);
    await expect(note).toContainText('Shell commands are not sandboxed');
    await expect(page.getByText('Shell commands are not sandboxed', { exact: false })).toHaveCount(1);
    await shoot(page, 'sandbox-note', note);
    await note.getByRole('button', { name: 'Close this note for this session' }).click();
    await expect(note).toHaveCount(0);

    // Closed for this session, across a reload; another session with a folder still says it.
    await page.reload();
    await openRow(page, 'Folder ask');
    await expect(page.getByTestId('session-title')).toHaveText('Folder ask');
    await expect(page.getByTestId('workspace-bar')).toBeVisible();
    await expect(note).toHaveCount(0);
    await cairn.call('session.create', { title: 'Folder ask too', permissionMode: 'ask', workspacePath: workspace });
    await openRow(page, 'Folder ask too');
    await expect(note).toContainText('Shell commands are not sandboxed');
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
});

/** An HTTP server on 127.0.0.1 answering `text`, for the sandbox's proxy to reach as localhost. */
async function serveOnLoopback(text: string): Promise<{ port: number; close: () => Promise<void> }> {
  const server = createServer((_request, response) => response.end(text));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function send(page: Page, text: string): Promise<void> {
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill(text);
  await composer.press('Enter');
}
