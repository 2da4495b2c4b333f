import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findCodexBinary } from '../src-main/runtime/connections/codex-binary';
import {
  hangReply,
  startOpenAIResponsesServer,
  textReply,
  toolCallReply,
  type ProviderTestServer,
} from '../src-main/testing/provider-servers';
import { expect, test } from './fixtures';

let server: ProviderTestServer;
let workspace: string;

test.beforeEach(async () => {
  server = await startOpenAIResponsesServer();
  workspace = mkdtempSync(join(tmpdir(), 'cairn-e2e-codex-'));
  writeFileSync(join(workspace, 'hello.txt'), 'old line\n');
});
test.afterEach(async () => {
  await server.close();
  rmSync(workspace, { recursive: true, force: true });
});

test('a Codex session: connect Codex in Settings, approve its diff, the file changes, and Stop a slow turn', async ({
  page,
  cairn,
}) => {
  await cairn.open(page);
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByRole('button', { name: 'Add connection' }).click();
  await settings.getByRole('radio', { name: /Codex/ }).check();
  await expect(settings.getByRole('textbox', { name: 'API key' })).toHaveAccessibleDescription(/Codex’s own login/);
  await settings.getByRole('textbox', { name: 'Base URL' }).fill(server.baseUrl);
  const binary = findCodexBinary(null)?.path ?? '';
  await settings.getByRole('textbox', { name: 'Codex binary' }).fill(binary);
  await settings
    .getByRole('form', { name: 'Add a connection' })
    .getByRole('button', { name: 'Add connection' })
    .click();
  await expect(settings.getByTestId('connection-detail')).toContainText('Codex (app-server)');
  await settings.getByRole('button', { name: 'Test', exact: true }).click();
  await expect(settings.getByTestId('connection-verdict')).toHaveAttribute('data-verdict', 'ok');
  await expect(settings.getByTestId('connection-detail')).toContainText(`set on this connection: ${binary}`);
  const artifacts = join(process.cwd(), 'e2e-artifacts');
  mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: join(artifacts, 'codex-connection.png') });
  await page.keyboard.press('Escape');

  const { connections } = await cairn.call('connection.list', {});
  const codex = connections.find((connection) => connection.providerType === 'codex');
  expect(codex).toBeDefined();
  await cairn.call('session.create', {
    title: 'Codex edit',
    connectionId: codex?.connectionId ?? '',
    permissionMode: 'ask',
    workspacePath: workspace,
  });
  await page.getByTestId('session-row').filter({ hasText: 'Codex edit' }).click();
  await expect(page.getByTestId('model-picker')).toContainText(/gpt-5\.5/i); // "GPT-5.5" once Codex's model/list is read
  await expect(page.getByTestId('sandbox-note')).toContainText('Codex runs commands in its own sandbox');

  const patch = '*** Begin Patch\n*** Update File: hello.txt\n@@\n-old line\n+new line\n*** End Patch\n';
  server.enqueue(toolCallReply({ id: 'call_p', name: 'apply_patch', input: patch }), textReply('I changed the line.'));
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill('Change the line in hello.txt');
  await composer.press('Enter');
  const approval = page.locator('[data-testid="interaction"][data-kind="permission"]').last();
  await expect(approval).toHaveAttribute('data-status', 'pending');
  await expect(approval).toContainText('+new line');
  expect(readFileSync(join(workspace, 'hello.txt'), 'utf8')).toBe('old line\n');
  await page.screenshot({ path: join(artifacts, 'codex-approval.png') });
  await approval.getByRole('button', { name: 'Allow once' }).click();
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');
  await expect(page.locator('[data-kind="assistant_message"]').last()).toHaveText('I changed the line.');
  expect(readFileSync(join(workspace, 'hello.txt'), 'utf8')).toBe('new line\n');

  server.enqueue(hangReply(['Thinking slowly ']));
  await composer.fill('Take your time');
  await composer.press('Enter');
  await expect(page.locator('[data-kind="assistant_message"]').last()).toContainText('Thinking slowly');
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'cancelled');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: join(artifacts, 'codex-session-dark.png') });
});

test("a Codex command's output shows in its terminal while it runs, then its exit code", async ({ page, cairn }) => {
  const { connection } = await cairn.call('connection.create', {
    name: 'Codex',
    providerType: 'codex',
    baseUrl: server.baseUrl,
  });
  await cairn.call('session.create', {
    title: 'Codex live',
    connectionId: connection.connectionId,
    permissionMode: 'full',
    workspacePath: workspace,
  });
  await cairn.open(page);
  await page.getByTestId('session-row').filter({ hasText: 'Codex live' }).click();
  const command = 'while [ ! -f go ]; do echo first-line; sleep 0.2; done; echo second-line';
  server.enqueue(
    toolCallReply({ id: 'call_live', name: 'exec_command', input: { cmd: command, yield_time_ms: 30_000 } }),
    textReply('Both lines printed.'),
  );
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill('Print two lines');
  await composer.press('Enter');
  const terminal = page.getByTestId('shell-run').last();
  await expect(terminal).toHaveAttribute('data-status', 'running');
  const output = terminal.getByTestId('shell-output');
  await expect(output).toContainText('first-line');
  await expect(output).not.toContainText('second-line');
  // Codex owns the process: the command ends with its turn (the composer's Stop), not on its own.
  await expect(terminal.getByRole('button', { name: /Stop/ })).toHaveCount(0);
  const artifacts = join(process.cwd(), 'e2e-artifacts');
  mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: join(artifacts, 'codex-live-command.png') });
  writeFileSync(join(workspace, 'go'), '');
  await expect(terminal).toHaveAttribute('data-status', 'exited');
  await expect(output).toContainText('second-line');
  await expect(terminal).toContainText('Exit 0');
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: join(artifacts, 'codex-live-command-dark.png') });
});
