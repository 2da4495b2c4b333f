import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { testAgentCommand } from '../src-main/testing/acp-test-agent-launch';
import { freshAcpFolders } from './acp-folders';
import { expect, test } from './fixtures';

const folders = freshAcpFolders();

test('an ACP agent’s plan is one card updated in place, and its terminal shows as a live shell run', async ({
  page,
  cairn,
}) => {
  // The test agent starts through tsx, several seconds on a loaded machine.
  test.setTimeout(180_000);
  await cairn.open(page);
  const { connection } = await cairn.call('connection.create', {
    name: 'Test agent',
    providerType: 'acp',
    acpAgent: testAgentCommand(folders.agentState),
  });
  await cairn.call('session.create', {
    title: 'ACP plan',
    connectionId: connection.connectionId,
    permissionMode: 'full',
    workspacePath: folders.workspace,
  });
  await page.getByTestId('session-row').filter({ hasText: 'ACP plan' }).click();

  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill(
    'plan in_progress Count the herons; pending Write the report\ntext Counting.\nsh echo seven herons\nplan completed Count the herons; in_progress Write the report',
  );
  await composer.press('Enter');
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed', { timeout: 60_000 });
  const plans = page.getByTestId('plan-card');
  await expect(plans).toHaveCount(1);
  await expect(plans).toContainText('1 of 2 done');
  await expect(plans.locator('[data-status="completed"]')).toContainText('Count the herons');
  await expect(plans.locator('[data-status="in_progress"]')).toContainText('Write the report');
  await expect(page.getByTestId('shell-run')).toContainText('seven herons');
  const artifacts = join(process.cwd(), 'e2e-artifacts');
  mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: join(artifacts, 'acp-plan-terminal.png') });
});
