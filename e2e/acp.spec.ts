import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testAgentCommand } from '../src-main/testing/acp-test-agent-launch';
import { formatCommandLine } from '../src-renderer/forms/acp-command';
import { freshAcpFolders } from './acp-folders';
import { expect, test } from './fixtures';

const folders = freshAcpFolders();

test('a custom ACP agent: add it in Settings, Test it, approve its write, the file is written, and Stop a streaming turn', async ({
  page,
  cairn,
}) => {
  // The test agent starts through tsx, several seconds on a loaded machine, once for Test and once for the session.
  test.setTimeout(180_000);
  const agent = testAgentCommand(folders.agentState);
  await cairn.open(page);
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByRole('button', { name: 'Add connection' }).click();
  await settings.getByRole('radio', { name: /ACP agent/ }).check();
  // Claude is the agent offered first: its key and base URL fields, no command line.
  await expect(settings.getByRole('textbox', { name: 'Base URL' })).toHaveCount(1);
  await expect(settings.getByRole('textbox', { name: 'Agent command' })).toHaveCount(0);
  await settings.getByRole('radio', { name: /^Custom/ }).check();
  await expect(settings.getByRole('textbox', { name: 'Base URL' })).toHaveCount(0);
  // A command that is not there: the add is refused, and focus stays in the dialog, on why.
  await settings.getByRole('textbox', { name: 'Agent command' }).fill('cairn-no-such-agent --acp');
  await settings
    .getByRole('form', { name: 'Add a connection' })
    .getByRole('button', { name: 'Add connection' })
    .click();
  await expect(settings.getByTestId('connection-notice')).toContainText(
    'There is no program called cairn-no-such-agent',
  );
  await expect(settings.getByTestId('connection-notice')).toBeFocused();
  await settings.getByRole('textbox', { name: 'Agent command' }).fill(formatCommandLine(agent.command, agent.args));
  await expect(settings.getByRole('textbox', { name: 'Environment' })).toHaveAttribute('placeholder', /^Optional/);
  await settings.getByRole('textbox', { name: 'Environment' }).fill(`ACP_TEST_AGENT_STATE=${folders.agentState}`);
  await settings
    .getByRole('form', { name: 'Add a connection' })
    .getByRole('button', { name: 'Add connection' })
    .click();
  await expect(settings.getByTestId('connection-detail')).toContainText('ACP agent');
  await settings.getByRole('button', { name: 'Test', exact: true }).click();
  await expect(settings.getByTestId('connection-verdict')).toHaveAttribute('data-verdict', 'ok', { timeout: 40_000 });
  await expect(settings.getByTestId('connection-detail')).toContainText(
    'Cairn ACP test agent 1.0.0 speaks ACP 1: reloads sessions.',
  );
  // The agent chooses its own model, so it can be the default with none ticked.
  await settings.getByRole('button', { name: 'Make default' }).click();
  await expect(settings.getByTestId('default-note')).toHaveText(
    'New sessions use this connection; the agent chooses its model.',
  );
  const artifacts = join(process.cwd(), 'e2e-artifacts');
  mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: join(artifacts, 'acp-connection.png') });
  await page.keyboard.press('Escape');

  const { connections } = await cairn.call('connection.list', {});
  const acp = connections.find((connection) => connection.providerType === 'acp');
  expect(acp?.acpAgent).toEqual({ ...agent, env: { ACP_TEST_AGENT_STATE: folders.agentState } });
  const { session } = await cairn.call('session.create', {
    title: 'ACP edit',
    permissionMode: 'ask',
    workspacePath: folders.workspace,
  });
  expect(session).toMatchObject({ connectionId: acp?.connectionId, model: null });
  await page.getByTestId('session-row').filter({ hasText: 'ACP edit' }).click();

  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill('write hello.txt new line');
  await composer.press('Enter');
  const approval = page.locator('[data-testid="interaction"][data-kind="permission"]').last();
  await expect(approval).toHaveAttribute('data-status', 'pending', { timeout: 40_000 });
  await expect(approval).toContainText('+new line');
  await page.screenshot({ path: join(artifacts, 'acp-approval.png') });
  await approval.getByRole('button', { name: 'Allow once' }).click();
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');
  await expect(page.locator('[data-kind="assistant_message"]').last()).toHaveText('Wrote hello.txt (once).');
  expect(readFileSync(join(folders.workspace, 'hello.txt'), 'utf8')).toBe('new line');

  await composer.fill('slow 400 50');
  await composer.press('Enter');
  await expect(page.locator('[data-kind="assistant_message"]').last()).toContainText('chunk-2');
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'cancelled');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: join(artifacts, 'acp-session-dark.png') });
});
