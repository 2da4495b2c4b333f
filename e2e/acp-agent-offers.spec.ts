import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { testAgentCommand } from '../src-main/testing/acp-test-agent-launch';
import { freshAcpFolders } from './acp-folders';
import { expect, test } from './fixtures';

const folders = freshAcpFolders();

test('an ACP agent’s own commands in the / menu, its modes and options in the header, its title and cost on the session', async ({
  page,
  cairn,
}) => {
  // The test agent starts through tsx, several seconds on a loaded machine.
  test.setTimeout(180_000);
  await cairn.open(page);
  const { connection } = await cairn.call('connection.create', {
    name: 'Test agent',
    providerType: 'acp',
    acpAgent: testAgentCommand(folders.agentState, { offers: true }),
  });
  // Not named by the person: the agent's title may name it.
  await cairn.call('session.create', {
    connectionId: connection.connectionId,
    permissionMode: 'ask',
    workspacePath: folders.workspace,
  });
  await page.getByTestId('session-row').first().click();
  const composer = page.getByRole('textbox', { name: 'Message' });
  const said = page.locator('[data-kind="assistant_message"]').last();

  // The agent's title names the session (the person had not named it).
  await composer.fill('title Counting herons\nsettings');
  await composer.press('Enter');
  await expect(said).toHaveText('mode=default model=sonnet effort=medium', { timeout: 60_000 });
  await expect(page.getByTestId('session-title')).toHaveText('Counting herons');

  // Its commands: first in the / menu, marked as the agent's, with their input hint.
  await composer.fill('/');
  const menu = page.getByTestId('slash-menu');
  await expect(menu.getByTestId('slash-agent-heading')).toHaveText('Cairn ACP test agent’s commands');
  const review = menu.getByRole('option', { name: /\/review/ });
  await expect(review).toContainText('Review the changes · what to focus on');
  await expect(review).toContainText('agent');
  // The Offline demo's directives are that agent's alone: this agent would get them as text.
  await expect(menu.getByRole('option', { name: /\/tool/ })).toHaveCount(0);
  await review.click();
  await expect(composer).toHaveValue('/review ');
  await composer.pressSequentially('the herons');
  await composer.press('Enter');
  await expect(said).toHaveText('/review the herons');

  // Its mode and options in the header: Manual in Ask, Bypass permissions only in Full.
  const choices = page.getByTestId('agent-choices');
  await expect(choices).toContainText('Manual · Sonnet');
  await choices.getByRole('button', { name: /settings/ }).click();
  const mode = choices.getByRole('combobox', { name: 'Mode', exact: true });
  await expect(mode.locator('option', { hasText: 'Bypass permissions' })).toBeDisabled();
  await expect(mode.locator('option', { hasText: 'Bypass permissions' })).toContainText('Full mode only');
  await choices.getByRole('combobox', { name: 'Effort' }).selectOption('high');
  await mode.selectOption('plan');
  await expect(choices.getByRole('button', { name: /settings/ })).toContainText('Plan · Sonnet');
  const artifacts = join(process.cwd(), 'e2e-artifacts');
  mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: join(artifacts, 'acp-agent-choices.png') });
  await page.keyboard.press('Escape');
  await composer.fill('settings');
  await composer.press('Enter');
  await expect(said).toHaveText('mode=plan model=sonnet effort=high');

  // The cost it reports is counted in the session's usage, beside other agents'.
  await composer.fill('cost 0.42 1000 200000');
  await composer.press('Enter');
  await expect(page.getByTestId('session-usage')).toContainText('$0.42', { timeout: 30_000 });

  // Denying with a reason: this agent cannot take it into its turn, and the card says so.
  await composer.fill('write heron.txt seven herons');
  await composer.press('Enter');
  const approval = page.locator('[data-testid="interaction"][data-kind="permission"]').last();
  await expect(approval).toHaveAttribute('data-status', 'pending', { timeout: 40_000 });
  await expect(approval.getByTestId('reason-note')).toContainText('may not pass on to its model');

  // Kept in the session's record: a reload shows the same.
  await page.reload();
  await expect(page.getByTestId('agent-choices')).toContainText('Plan · Sonnet', { timeout: 30_000 });
});
