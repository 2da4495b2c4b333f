import type { Page } from '@playwright/test';
import type { CairnHost } from './fixtures';
import { expect, test } from './fixtures';

async function newSession(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'New session', exact: true }).first().click();
  const selected = page.getByTestId('session-row').filter({ has: page.locator('[aria-current="page"]') });
  await expect(selected).toHaveCount(1);
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
  return (await selected.getAttribute('data-session-id')) ?? '';
}

async function setGoal(page: Page, fields: { objective: string; budget?: string; turns?: string }) {
  await page.getByRole('button', { name: 'Set goal' }).click();
  const dialog = page.getByRole('dialog', { name: 'Set a goal' });
  await dialog.getByRole('textbox', { name: 'Objective' }).fill(fields.objective);
  await dialog.getByRole('textbox', { name: 'Token budget' }).fill(fields.budget ?? '');
  await dialog.getByRole('textbox', { name: 'Turn cap' }).fill(fields.turns ?? '');
  await dialog.getByRole('button', { name: 'Set goal' }).click();
  return dialog;
}

async function goalTurnsOnHost(cairn: CairnHost, sessionId: string): Promise<number> {
  const { transcript, activeTurn } = await cairn.call('session.get', { sessionId });
  const ids = new Set(transcript.turns.filter((turn) => turn.origin === 'goal').map((turn) => turn.turnId));
  if (activeTurn?.origin === 'goal') ids.add(activeTurn.turnId);
  return ids.size;
}

test('a goal set in the dialog runs goal turns, holds still while paused, and completes after Resume', async ({
  page,
  cairn,
}) => {
  await cairn.open(page);
  const sessionId = await newSession(page);
  expect(sessionId).not.toBe('');
  // A turn cap of 1 stops the goal at a known point: scripted goal turns take a fraction of a second.
  const dialog = await setGoal(page, { objective: 'write the summary, finish after 3', turns: '1' });
  await expect(dialog).toBeHidden();

  const bar = page.getByTestId('goal-bar');
  await expect(bar).toContainText('write the summary, finish after 3');
  await expect(page.getByTestId('goal-chip')).toHaveCount(1);
  await expect(bar).toHaveAttribute('data-status', 'iterationLimited');
  await expect(bar.getByTestId('goal-turns')).toHaveText('1 of 1 turn');
  await expect(bar.getByTestId('goal-tokens')).toHaveText('500 tokens');
  await expect(bar.getByTestId('goal-reason')).toContainText('turn cap');

  // While a message of the person's runs, the goal waits: lift the cap and resume it, then Pause.
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill('/hold');
  await composer.press('Enter');
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'running');
  await bar.getByRole('button', { name: 'Edit limits' }).click();
  const limits = page.getByRole('dialog', { name: 'Edit the goal’s limits' });
  await limits.getByRole('textbox', { name: 'Turn cap' }).fill('');
  await limits.getByRole('button', { name: 'Save limits' }).click();
  await expect(bar.getByTestId('goal-turns')).toHaveText('1 turn');
  await bar.getByRole('button', { name: 'Resume' }).click();
  await expect(bar).toHaveAttribute('data-status', 'active');
  await bar.getByRole('button', { name: 'Pause' }).click();
  await expect(bar).toHaveAttribute('data-status', 'paused');
  await expect(bar.getByTestId('goal-reason')).toHaveText('Paused by you');
  await expect(page.getByTestId('goal-badge')).toHaveAttribute('data-status', 'paused');

  // Stopping the person's turn makes the host look at the session again: the paused goal starts nothing.
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'cancelled');
  const { goal: paused } = await cairn.call('goal.get', { sessionId });
  expect(paused).toMatchObject({ status: 'paused', iterations: 1 });
  const until = Date.now() + 1000;
  while (Date.now() < until) {
    const { goal } = await cairn.call('goal.get', { sessionId });
    expect(goal).toMatchObject({ status: 'paused', iterations: 1 });
    expect(await goalTurnsOnHost(cairn, sessionId)).toBe(1);
  }
  await expect(page.getByTestId('goal-chip')).toHaveCount(1);
  await expect(bar).toHaveAttribute('data-iterations', '1');

  // Resume: the remaining goal turns appear, the bar advances, and the agent completes the goal.
  await bar.getByRole('button', { name: 'Resume' }).click();
  await expect(bar).toHaveAttribute('data-status', 'complete');
  await expect(bar.getByTestId('goal-status')).toHaveText('Complete');
  await expect(bar.getByTestId('goal-turns')).toHaveText('3 turns');
  await expect(bar.getByTestId('goal-tokens')).toHaveText('1.5k tokens');
  await expect(bar.getByTestId('goal-reason')).toHaveText('Done after 3 turns.');
  await expect(page.getByTestId('goal-chip')).toHaveCount(3);
  await expect(page.getByTestId('goal-badge')).toHaveAttribute('data-status', 'complete');
  expect(await goalTurnsOnHost(cairn, sessionId)).toBe(3);
});

test('a budget-limited goal stops and says why; raising the limit lets it go on; Clear asks first', async ({
  page,
  cairn,
}) => {
  await cairn.open(page);
  const sessionId = await newSession(page);

  // The dialog checks the budget before anything is sent.
  await page.getByRole('button', { name: 'Set goal' }).click();
  const dialog = page.getByRole('dialog', { name: 'Set a goal' });
  await dialog.getByRole('button', { name: 'Set goal' }).click();
  await expect(dialog.getByRole('textbox', { name: 'Objective' })).toHaveAccessibleDescription(/Say what the goal is/);
  await dialog.getByRole('textbox', { name: 'Objective' }).fill('keep going');
  const budget = dialog.getByRole('textbox', { name: 'Token budget' });
  await budget.fill('999');
  await dialog.getByRole('button', { name: 'Set goal' }).click();
  await expect(budget).toHaveAttribute('aria-invalid', 'true');
  await expect(budget).toHaveAccessibleDescription(/at least 1,000 tokens/);
  await budget.fill('1000');
  await dialog.getByRole('button', { name: 'Set goal' }).click();
  await expect(dialog).toBeHidden();

  const bar = page.getByTestId('goal-bar');
  await expect(bar).toHaveAttribute('data-status', 'budgetLimited');
  await expect(bar.getByTestId('goal-status')).toHaveText('Budget used up');
  await expect(bar.getByTestId('goal-reason')).toContainText('The token budget is used up');
  await expect(bar.getByTestId('goal-tokens')).toHaveText('1k of 1k tokens');
  await expect(bar.getByRole('progressbar', { name: 'Token budget used' })).toHaveAttribute('value', '1000');
  await expect(page.getByTestId('goal-badge')).toHaveAttribute('data-status', 'budgetLimited');
  await expect(page.getByTestId('goal-badge')).toContainText('Budget used up');
  expect((await cairn.call('goal.get', { sessionId })).goal?.status).toBe('budgetLimited');
  // Over budget, Resume is not offered as if it could work.
  await expect(bar.getByRole('button', { name: 'Resume' })).toBeDisabled();

  await bar.getByRole('button', { name: 'Edit limits' }).click();
  const limits = page.getByRole('dialog', { name: 'Edit the goal’s limits' });
  await limits.getByRole('textbox', { name: 'Token budget' }).fill('2k');
  await limits.getByRole('button', { name: 'Save limits' }).click();
  await expect(limits).toBeHidden();
  await expect(bar.getByTestId('goal-tokens')).toHaveText('1k of 2k tokens');
  // The figures and the words agree once the budget is raised.
  await expect(bar.getByTestId('goal-status')).toHaveText('Limit raised');
  await expect(bar.getByTestId('goal-reason')).toHaveText('The limit was raised. Resume to go on.');
  await expect(page.getByTestId('goal-badge')).toContainText('Limit raised');
  await bar.getByRole('button', { name: 'Resume' }).click();
  await expect(bar.getByTestId('goal-tokens')).toHaveText('2k of 2k tokens');
  await expect(bar).toHaveAttribute('data-status', 'budgetLimited');
  await expect(page.getByTestId('goal-chip')).toHaveCount(4);

  await bar.getByRole('button', { name: 'Clear the goal' }).click();
  const confirm = page.getByRole('dialog', { name: 'Clear this goal?' });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(bar).toBeVisible();
  await bar.getByRole('button', { name: 'Clear the goal' }).click();
  await confirm.getByRole('button', { name: 'Clear goal' }).click();
  await expect(bar).toBeHidden();
  await expect(page.getByTestId('goal-badge')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Set goal' })).toBeVisible();
  expect((await cairn.call('goal.get', { sessionId })).goal).toBeNull();
});
