import { mkdirSync, mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentModel } from '../src-main/testing/agent-model';
import {
  hangReply,
  startAnthropicServer,
  textReply,
  toolCallReply,
  type ProviderTestServer,
} from '../src-main/testing/provider-servers';
import { earlierAgentSession } from '../src-main/testing/earlier-agent-session';
import { linkRealAgents, REAL_AGENTS, realAgentsInstalled } from '../src-main/testing/real-acp-agents';
import { expect, test } from './fixtures';

/** The real Claude agent (`npm run test-agents`), added as a preset in Settings, against Cairn's fake Anthropic Messages server. */

const installed = realAgentsInstalled();
const claude = REAL_AGENTS.find((agent) => agent.kind === 'claude');

let workspace: string;
let home: string;
let server: ProviderTestServer;
const model = agentModel();
// The fake server refuses any other key.
const KEY = 'claude-e2e-key';

test.beforeEach(async () => {
  workspace = mkdtempSync(join(tmpdir(), 'cairn-e2e-claude-'));
  // Claude keeps its sessions under HOME: a fresh one, so nothing of this machine's leaks in.
  home = mkdtempSync(join(tmpdir(), 'cairn-e2e-claude-home-'));
  server = await startAnthropicServer({ fallbackReply: model.answer, apiKey: KEY });
});
test.afterEach(async () => {
  await server.close();
  rmSync(workspace, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

test('Claude: add it in Settings with the server’s address and a key, Test names it, a write behind an approval card, Stop mid-stream, then Import from Claude of a session it made elsewhere', async ({
  page,
  cairn,
}) => {
  test.skip(
    !installed || claude === undefined,
    'The real ACP agents are not installed in test-agents/ (npm run test-agents installs them).',
  );
  // Claude starts in a few seconds alone, in tens of seconds on a loaded machine: once for Test, once for the session.
  test.setTimeout(600_000);
  linkRealAgents(cairn.dataDir);
  await cairn.open(page);
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByRole('button', { name: 'Add connection' }).click();
  await settings.getByRole('radio', { name: /ACP agent/ }).check();
  await settings.getByRole('radio', { name: /^Claude/ }).check();
  await settings.getByRole('textbox', { name: 'Base URL' }).fill(server.baseUrl);
  await settings.getByRole('textbox', { name: 'API key' }).fill(KEY);
  await settings.getByRole('textbox', { name: 'Environment' }).fill(`HOME=${home}`);
  await settings
    .getByRole('form', { name: 'Add a connection' })
    .getByRole('button', { name: 'Add connection' })
    .click();
  await expect(settings.getByTestId('connection-detail')).toContainText('ACP agent');
  await settings.getByRole('button', { name: 'Test', exact: true }).click();
  await expect(settings.getByTestId('connection-verdict')).toHaveAttribute('data-verdict', 'ok', { timeout: 60_000 });
  await expect(settings.getByTestId('connection-detail')).toContainText(
    'Claude Agent 0.101.0 speaks ACP 1: reloads sessions',
  );
  const artifacts = join(process.cwd(), 'e2e-artifacts');
  mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: join(artifacts, 'acp-claude-connection.png') });
  await page.keyboard.press('Escape');

  const { connections } = await cairn.call('connection.list', {});
  const added = connections.find((connection) => connection.providerType === 'acp');
  expect(added?.acpAgent?.preset).toEqual({ kind: 'claude', model: null });
  await cairn.call('session.create', {
    title: 'Claude edit',
    connectionId: added?.connectionId ?? '',
    permissionMode: 'ask',
    workspacePath: workspace,
  });
  await page.getByTestId('session-row').filter({ hasText: 'Claude edit' }).click();
  // Before the agent first starts, the header says what the connection runs.
  await expect(page.getByTestId('model-picker')).toContainText('Claude agent');

  const path = join(workspace, 'heron.txt');
  model.script(
    toolCallReply(claude?.writeCall(path, 'seven herons') ?? { id: '', name: '', input: {} }, 2),
    textReply('Wrote heron.txt.', 2),
  );
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill('Write heron.txt');
  await composer.press('Enter');
  const approval = page.locator('[data-testid="interaction"][data-kind="permission"]').last();
  await expect(approval).toHaveAttribute('data-status', 'pending', { timeout: 240_000 });
  await expect(approval).toContainText('seven herons');
  // Started, the agent has named itself: the header says so.
  await expect(page.getByTestId('model-picker')).toContainText('Claude Agent 0.101.0');
  expect(existsSync(path)).toBe(false);
  await page.screenshot({ path: join(artifacts, 'acp-claude-approval.png') });
  await approval.getByRole('button', { name: 'Allow once' }).click();
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed', {
    timeout: 120_000,
  });
  await expect(page.locator('[data-kind="assistant_message"]').last()).toContainText('Wrote heron.txt.');
  expect(readFileSync(path, 'utf8')).toBe('seven herons');
  // The key reached the provider only through the agent's own variables.
  expect(model.calls[0]?.headers).toMatchObject({ 'x-api-key': KEY });

  model.script(hangReply(['Counting the herons one by one']));
  await composer.fill('Count them slowly');
  await composer.press('Enter');
  await expect(page.locator('[data-kind="assistant_message"]').last()).toContainText('Counting the herons', {
    timeout: 120_000,
  });
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'cancelled', { timeout: 30_000 });
  await page.screenshot({ path: join(artifacts, 'acp-claude-session.png') });

  // Import from Claude: a session Claude made outside Cairn, in the same folder, beside the one Cairn made.
  model.script(textReply('Seven herons.', 1));
  await earlierAgentSession('claude', { home, baseUrl: server.baseUrl, apiKey: KEY }, workspace, 'How many herons?');
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await settings.getByTestId('connection-row').filter({ hasText: 'Claude' }).click();
  const importing = settings.getByTestId('acp-import');
  await expect(importing.getByRole('heading')).toHaveText('Import from Claude');
  await importing.getByRole('combobox', { name: 'Folder' }).fill(workspace);
  await importing.getByRole('button', { name: 'Show sessions' }).click();
  const listed = importing.getByRole('list', { name: 'Claude Agent’s sessions' });
  await expect(listed.getByRole('listitem')).toHaveCount(2, { timeout: 120_000 });
  // The session Cairn runs is already one of Cairn's: Open, not a copy.
  await expect(listed.getByRole('button', { name: /^Open / })).toHaveCount(1);
  await importing.getByRole('button', { name: 'Import How many herons?' }).click();
  await expect(settings).toBeHidden({ timeout: 120_000 });
  await expect(page.getByTestId('session-row').filter({ hasText: 'How many herons?' })).toBeVisible();
  await expect(page.locator('[data-kind="user_message"]').first()).toContainText('How many herons?');
  await expect(page.locator('[data-kind="assistant_message"]').first()).toContainText('Seven herons.');
  model.script(textReply('Still seven.', 1));
  await composer.fill('And now?');
  await composer.press('Enter');
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed', {
    timeout: 240_000,
  });
  await expect(page.locator('[data-kind="assistant_message"]').last()).toContainText('Still seven.');
  // The agent went on in its own session: the model was sent the earlier exchange as the agent's history.
  expect(JSON.stringify(model.calls.at(-1)?.body)).toContain('Seven herons.');
  await page.screenshot({ path: join(artifacts, 'acp-claude-imported.png') });
});
