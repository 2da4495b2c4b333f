import type { Page } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { expect, test } from './fixtures';

const TEST_SERVER = fileURLToPath(new URL('../src-main/testing/mcp-servers/stdio-test-server.ts', import.meta.url));

/** Settings → Tools (MCP) → Add server: the test server as a local command. Leaves Settings open on it. */
async function addServerInSettings(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByRole('tab', { name: 'Tools (MCP)' }).click();
  const form = settings.getByRole('form', { name: 'Add an MCP server' });
  await form.getByRole('radio', { name: /Local command/ }).check();
  await form.getByRole('textbox', { name: 'Name' }).fill('Notes');
  await form.getByRole('textbox', { name: 'Command' }).fill(process.execPath);
  await form.getByRole('textbox', { name: 'Arguments' }).fill(['--import', 'tsx', TEST_SERVER].join('\n'));
  await form.getByRole('button', { name: 'Add variable' }).click();
  await form.getByRole('textbox', { name: 'variable 1 name' }).fill('CAIRN_TEST_SECRET');
  await form.getByRole('checkbox', { name: 'Secret' }).check();
  await form.getByLabel('variable 1 value').fill('e2e-secret-value');
  await form.getByRole('button', { name: 'Add server' }).click();
  await expect(settings.getByTestId('mcp-server-detail')).toContainText('Notes');
}

test('add an MCP server in Settings, see its tools, and run a turn that calls one with approval', async ({
  page,
  cairn,
}) => {
  test.setTimeout(120_000);
  await cairn.open(page);
  await addServerInSettings(page);
  const settings = page.getByRole('dialog', { name: 'Settings' });
  const detail = settings.getByTestId('mcp-server-detail');
  // The secret is write-only: the form shows it as stored, never its value.
  await expect(detail.getByLabel('variable 1 value')).toHaveValue('');
  await expect(detail.getByLabel('variable 1 value')).toHaveAttribute('placeholder', '•••• stored');

  await detail.getByRole('button', { name: 'Test', exact: true }).click();
  await expect(detail.getByTestId('mcp-test-result')).toContainText('cairn-test-server 1.2.3');
  await expect(detail.getByTestId('mcp-test-result')).toContainText('7 tools');
  const tools = detail.getByTestId('mcp-tools').last();
  await expect(tools).toContainText('write_note');
  await expect(tools.locator('li').filter({ hasText: 'echo' }).first()).toContainText('read-only');
  // Enabled servers start when used; Test does not change that, a session's first step does.
  await page.keyboard.press('Escape');

  const { session } = await cairn.call('session.create', { title: 'MCP approval', permissionMode: 'ask' });
  await page.getByTestId('session-row').filter({ hasText: 'MCP approval' }).click();
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill('/tool notes__write_note {"note":"from the browser"}');
  await composer.press('Enter');
  const approval = page.locator('[data-testid="interaction"][data-kind="permission"]').last();
  // The session's first step starts the server (a real process, through tsx): seconds on a loaded machine.
  await expect(approval).toHaveAttribute('data-status', 'pending', { timeout: 60_000 });
  await expect(approval).toContainText('Call write_note on the MCP server Notes');
  await expect(approval.getByRole('figure')).toContainText('MCP server Notes · tool write_note');
  await expect(approval.getByLabel('Arguments')).toContainText('"note": "from the browser"');
  await approval.getByRole('button', { name: 'Allow once' }).click();
  await expect(
    page.getByText('saved note \\"from the browser\\"').or(page.getByText('saved note "from the browser"')).first(),
  ).toBeVisible();
  const { items } = await cairn.call('transcript.page', { sessionId: session.sessionId, limit: 50 });
  expect(items.find((item) => item.kind === 'tool_result')?.data).toMatchObject({
    isError: false,
    output: { text: 'saved note "from the browser"' },
  });

  // The composer's MCP menu: attach a resource (prompts are in the / menu: mcp-prompts-elicitation.spec.ts).
  await page.getByRole('button', { name: 'MCP', exact: true }).click();
  const menu = page.getByTestId('mcp-menu');
  await menu.getByRole('button', { name: /Today’s notes/ }).click();
  await expect(composer).toHaveValue(
    /Attached Today’s notes \(notes:\/\/today, from the MCP server Notes\):\n```\nBuy milk\. Call Ada\.\n```$/,
  );

  // Turned off for this session, its prompts and resources leave the menu.
  await page.getByRole('button', { name: 'MCP', exact: true }).click();
  await menu.getByRole('checkbox', { name: 'Notes' }).uncheck();
  await expect(menu).toContainText('No server offers resources.');
  expect((await cairn.call('mcp.session.servers', { sessionId: session.sessionId })).servers).toMatchObject([
    { name: 'Notes', on: false },
  ]);
  await page.keyboard.press('Escape');

  // The server is connected now, and Settings says so.
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await settings.getByRole('tab', { name: 'Tools (MCP)' }).click();
  await expect(settings.getByTestId('mcp-server-state').first()).toHaveAttribute('data-state', 'connected');
});

const openRow = (page: Page, title: string) =>
  page.getByTestId('session-row').filter({ hasText: title }).locator('.session-row-main').click();

test('the composer’s MCP menu is offered in a built-in agent’s session, not in a Codex session', async ({
  page,
  cairn,
}) => {
  await cairn.call('mcp.server.create', {
    name: 'Notes',
    transport: 'stdio',
    command: process.execPath,
    args: ['--import', 'tsx', TEST_SERVER],
  });
  const { connection } = await cairn.call('connection.create', {
    name: 'Codex',
    providerType: 'codex',
    baseUrl: 'http://127.0.0.1:9/v1',
  });
  await cairn.call('session.create', { title: 'Demo chat' });
  await cairn.call('session.create', { title: 'Codex chat', connectionId: connection.connectionId });
  await cairn.open(page);

  await openRow(page, 'Demo chat');
  await expect(page.getByRole('button', { name: 'MCP', exact: true })).toBeVisible();
  await openRow(page, 'Codex chat');
  await expect(page.getByTestId('session-title')).toHaveText('Codex chat');
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'MCP', exact: true })).toHaveCount(0);
});
