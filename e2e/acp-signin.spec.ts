import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testAgentCommand } from '../src-main/testing/acp-test-agent-launch';
import { freshAcpFolders } from './acp-folders';
import { expect, test } from './fixtures';

const folders = freshAcpFolders();

test('an ACP agent that wants a sign-in: Sign in with a code in the panel, and the refused turn then runs', async ({
  page,
  cairn,
}) => {
  // The test agent starts through tsx, several seconds on a loaded machine: for the session, then for its retry.
  test.setTimeout(180_000);
  await cairn.open(page);
  const { connection } = await cairn.call('connection.create', {
    name: 'Agent with sign-in',
    providerType: 'acp',
    acpAgent: testAgentCommand(folders.agentState, { auth: true }),
  });
  await cairn.call('session.create', {
    title: 'Sign-in session',
    connectionId: connection.connectionId,
    permissionMode: 'ask',
    workspacePath: folders.workspace,
  });
  await page.getByTestId('session-row').filter({ hasText: 'Sign-in session' }).click();
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill('text Hello after signing in.');
  await composer.press('Enter');

  // Refused until signed in: the turn says so and offers the agent's own ways.
  const status = page.getByTestId('turn-status').last();
  await expect(status).toHaveAttribute('data-error-code', 'agent_auth_required', { timeout: 60_000 });
  await expect(status).toContainText('Sign in to the agent');
  const signIn = status.getByTestId('acp-signin');
  await expect(signIn.getByRole('button', { name: 'Sign in with your browser' })).toBeVisible();
  await signIn.getByRole('button', { name: 'Sign in with a code' }).click();

  // The terminal sign-in runs in the panel: its output, an input line, Cancel.
  const panel = signIn.getByTestId('acp-signin-panel');
  await expect(panel).toHaveAttribute('data-status', 'running');
  await expect(panel.getByTestId('acp-signin-output')).toContainText('Code:', { timeout: 40_000 });
  await expect(panel.getByRole('button', { name: 'Cancel' })).toBeVisible();
  const answer = panel.getByRole('textbox', { name: 'Answer the sign-in' });
  await answer.fill('1234');
  await answer.press('Enter');
  // Signed in (exit 0), the refused turn is retried at once (the panel goes with the failure) and the session works.
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed', {
    timeout: 60_000,
  });
  expect(readFileSync(join(folders.agentState, 'credential'), 'utf8')).toBe('terminal\n');
  await expect(page.locator('[data-kind="assistant_message"]').last()).toHaveText('Hello after signing in.');
  await composer.fill('text And again.');
  await composer.press('Enter');
  await expect(page.locator('[data-kind="assistant_message"]').last()).toHaveText('And again.', { timeout: 60_000 });
});
