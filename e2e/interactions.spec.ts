import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

async function newSessionWith(page: Page, text: string) {
  await page.getByRole('button', { name: 'New session', exact: true }).first().click();
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill(text);
  await composer.press('Enter');
  return composer;
}

const lastStatus = (page: Page) => page.getByTestId('turn-status').last();
const lastReply = (page: Page) => page.locator('[data-kind="assistant_message"]').last();

test('/ask: the questions are answered in the inline form and the agent sums up the answers', async ({
  page,
  cairn,
}) => {
  await cairn.open(page);
  await newSessionWith(page, '/ask');
  const card = page.getByTestId('interaction').last();
  await expect(card).toHaveAttribute('data-status', 'pending');
  await expect(lastStatus(page)).toHaveAttribute('data-status', 'waiting');

  // Nothing chosen: each question says so, next to itself.
  await card.getByRole('button', { name: 'Submit' }).click();
  const target = card.getByRole('group', { name: /Deploy target/ });
  await expect(target).toHaveAttribute('aria-invalid', 'true');
  await expect(target).toContainText('Choose an answer.');

  await target.getByRole('radio', { name: /Production/ }).check();
  await target.getByRole('radio', { name: /Staging/ }).check();
  const checks = card.getByRole('group', { name: /Checks/ });
  await checks.getByRole('checkbox', { name: 'Lint' }).check();
  await checks.getByRole('checkbox', { name: 'Unit tests' }).check();
  await checks.getByRole('textbox', { name: 'Other answer for Checks' }).fill('Smoke tests');
  await expect(checks.getByRole('checkbox', { name: 'Other' })).toBeChecked();
  await card.getByRole('textbox', { name: /Anything I should keep in mind/ }).fill('Deploy after the Friday freeze');
  await expect(target).not.toHaveAttribute('aria-invalid', 'true');
  await card.getByRole('button', { name: 'Submit' }).click();

  await expect(card).toHaveAttribute('data-status', 'answered');
  await expect(card.getByTestId('answer-record')).toContainText('Staging');
  await expect(card.getByTestId('answer-record')).toContainText('Lint, Unit tests, Other: Smoke tests');
  await expect(lastStatus(page)).toHaveAttribute('data-status', 'completed');
  const summary = lastReply(page);
  await expect(summary).toContainText('Thanks — here is what I received');
  await expect(summary).toContainText('Deploy target: Staging');
  await expect(summary).toContainText('Checks: Lint, Unit tests, "Smoke tests"');
  await expect(summary).toContainText('Notes: "Deploy after the Friday freeze"');
});

test('/form: every field kind, an invalid value shown next to its field, corrected and submitted', async ({
  page,
  cairn,
}) => {
  await cairn.open(page);
  await newSessionWith(page, '/form');
  const card = page.getByTestId('interaction').last();
  await expect(card).toHaveAttribute('data-kind', 'form');
  await expect(card.getByRole('heading', { name: 'New project' })).toBeVisible();

  const name = card.getByRole('textbox', { name: 'Project name' });
  const owner = card.getByRole('textbox', { name: 'Owner email' });
  const team = card.getByRole('textbox', { name: 'Team size' });
  await expect(team).toHaveValue('3');
  await expect(name).toHaveAccessibleDescription(/2–60 characters/);
  await name.fill('Atlas');
  await card.getByRole('textbox', { name: 'Description' }).fill('A new home\nfor the docs');
  await owner.fill('not-an-email');
  await card.getByRole('textbox', { name: 'Repository URL' }).fill('https://example.com/atlas');
  await card.getByLabel('Start date').fill('2026-12-01');
  await card.getByLabel('Kick-off meeting').fill('2026-12-02T09:30');
  await card.getByRole('textbox', { name: 'Budget (USD)' }).fill('2500');
  await team.fill('0');
  await card.getByRole('switch', { name: 'Public repository' }).check();
  await card
    .getByRole('group', { name: /Priority/ })
    .getByRole('radio', { name: 'High' })
    .check();
  const platforms = card.getByRole('group', { name: /Platforms/ });
  await platforms.getByRole('checkbox', { name: 'Web' }).check();
  await platforms.getByRole('checkbox', { name: 'Desktop' }).check();
  await card.getByRole('button', { name: 'Submit' }).click();

  // Refused in the page, before the host: the problems sit next to their fields.
  await expect(owner).toHaveAttribute('aria-invalid', 'true');
  await expect(owner).toHaveAccessibleDescription(/Enter an email address like name@example.com/);
  await expect(team).toHaveAttribute('aria-invalid', 'true');
  await expect(team).toHaveAccessibleDescription(/Enter 1 or more/);
  await expect(card).toHaveAttribute('data-status', 'pending');
  // Focus leaves Submit for the first field to correct.
  await expect(owner).toBeFocused();

  await owner.fill('ada@example.com');
  await expect(owner).not.toHaveAttribute('aria-invalid', 'true');
  await team.fill('4');
  await expect(card.getByTestId('field-error')).toHaveCount(0);
  await card.getByRole('button', { name: 'Submit' }).click();

  await expect(card).toHaveAttribute('data-status', 'answered');
  const record = card.getByTestId('answer-record');
  await expect(record).toContainText('ada@example.com');
  await expect(record).toContainText('High');
  await expect(record).toContainText('Web, Desktop');
  await expect(lastStatus(page)).toHaveAttribute('data-status', 'completed');
  const summary = lastReply(page);
  await expect(summary).toContainText('Thanks — here is what I received');
  for (const line of [
    'name: Atlas',
    'owner: ada@example.com',
    'team: 4',
    'budget: 2500',
    'public: true',
    'priority: high',
    'platforms: web, desktop',
    'start: 2026-12-01',
  ]) {
    await expect(summary).toContainText(line);
  }
});

test('a pending question survives a host restart: the page reconnects, the answer is taken and the turn completes', async ({
  page,
  cairn,
}) => {
  await cairn.open(page);
  await newSessionWith(page, '/ask');
  await expect(page.getByTestId('interaction').last()).toHaveAttribute('data-status', 'pending');
  await cairn.kill();
  await expect(page.getByTestId('connection-banner')).toBeVisible();
  await cairn.start();
  await expect(page.getByTestId('connection-banner')).toBeHidden({ timeout: 15_000 });

  const card = page.getByTestId('interaction').last();
  await expect(card).toHaveAttribute('data-status', 'pending');
  await expect(page.getByTestId('waiting-count')).toHaveText('1');
  await card.getByRole('radio', { name: /Staging/ }).check();
  await card.getByRole('checkbox', { name: 'Lint' }).check();
  await card.getByRole('textbox', { name: /Anything I should keep in mind/ }).fill('after the restart');
  await card.getByRole('button', { name: 'Submit' }).click();
  await expect(card).toHaveAttribute('data-status', 'answered');
  await expect(lastStatus(page)).toHaveAttribute('data-status', 'completed');
  await expect(lastReply(page)).toContainText('"after the restart"');
  await expect(page.getByTestId('waiting-list')).toBeHidden();
});

test('Stop while the agent waits closes the question and cancels the turn', async ({ page, cairn }) => {
  await cairn.open(page);
  await newSessionWith(page, '/form');
  const card = page.getByTestId('interaction').last();
  await expect(card).toHaveAttribute('data-status', 'pending');
  await expect(lastStatus(page)).toHaveAttribute('data-status', 'waiting');
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(lastStatus(page)).toHaveAttribute('data-status', 'cancelled');
  await expect(card).toHaveAttribute('data-status', 'closed');
  await expect(card.getByTestId('interaction-outcome')).toHaveText(
    'Closed — the turn was stopped before you answered.',
  );
  await expect(page.getByTestId('waiting-list')).toBeHidden();
});

test('Waiting for you lists what waits across sessions; answering one leaves the other, and a secret stays masked', async ({
  page,
  cairn,
}) => {
  const first = (await cairn.call('session.create', { title: 'Deploy plan' })).session;
  const second = (await cairn.call('session.create', { title: 'Release token' })).session;
  await cairn.call('turn.start', { sessionId: first.sessionId, turnId: 'ask-1', text: '/ask' });
  await cairn.call('turn.start', { sessionId: second.sessionId, turnId: 'secret-1', text: '/ask-secret' });
  await cairn.open(page);

  const waiting = page.getByTestId('waiting-list');
  await expect(page.getByTestId('waiting-count')).toHaveText('2');
  await expect(waiting.getByTestId('waiting-item')).toHaveCount(2);
  await waiting.getByTestId('waiting-item').filter({ hasText: 'Release token' }).click();
  await expect(page.getByTestId('session-title')).toHaveText('Release token');

  const card = page.getByTestId('interaction').last();
  const token = card.getByRole('textbox', { name: /deploy token/i });
  await expect(token).toHaveAttribute('type', 'password');
  await token.fill('s3cret-value-123');
  await card.getByRole('radio', { name: 'Europe' }).check();
  await card.getByRole('button', { name: 'Submit' }).click();
  await expect(card).toHaveAttribute('data-status', 'answered');
  await expect(card.getByTestId('answer-record')).toContainText('••••••');
  await expect(lastStatus(page)).toHaveAttribute('data-status', 'completed');
  await expect(page.getByTestId('transcript')).not.toContainText('s3cret-value-123');

  await expect(page.getByTestId('waiting-count')).toHaveText('1');
  await expect(waiting.getByTestId('waiting-item')).toHaveText(/Deploy plan/);
  await waiting.getByTestId('waiting-item').click();
  await expect(page.getByTestId('session-title')).toHaveText('Deploy plan');
  await page.getByTestId('interaction').last().getByRole('button', { name: 'Skip' }).click();
  await expect(page.getByTestId('interaction').last()).toHaveAttribute('data-status', 'declined');
  await expect(lastReply(page)).toContainText('You declined to answer');
  await expect(waiting).toBeHidden();
});

test('a half-filled answer survives a reload, and a free-text question asks to write, not to choose', async ({
  page,
  cairn,
}) => {
  await cairn.open(page);
  await newSessionWith(page, '/ask');
  let card = page.getByTestId('interaction').last();
  await expect(card).toHaveAttribute('data-status', 'pending');
  await card.getByRole('button', { name: 'Submit' }).click();
  const notes = card.getByRole('textbox', { name: /Anything I should keep in mind/ });
  await expect(notes).toHaveAccessibleDescription(/Write an answer\./);
  await expect(notes).not.toHaveAccessibleDescription(/Choose/);

  await card
    .getByRole('group', { name: /Deploy target/ })
    .getByRole('radio', { name: /Production/ })
    .check();
  await card
    .getByRole('group', { name: /Checks/ })
    .getByRole('checkbox', { name: 'Lint' })
    .check();
  await card.getByRole('textbox', { name: /Anything I should keep in mind/ }).fill('Half a thought');

  await page.reload();
  await page.getByTestId('session-row').filter({ hasText: 'Offline demo: ask' }).first().click();
  card = page.getByTestId('interaction').last();
  await expect(card).toHaveAttribute('data-status', 'pending');
  await expect(
    card.getByRole('group', { name: /Deploy target/ }).getByRole('radio', { name: /Production/ }),
  ).toBeChecked();
  await expect(card.getByRole('group', { name: /Checks/ }).getByRole('checkbox', { name: 'Lint' })).toBeChecked();
  await expect(card.getByRole('textbox', { name: /Anything I should keep in mind/ })).toHaveValue('Half a thought');

  await card.getByRole('button', { name: 'Submit' }).click();
  await expect(card).toHaveAttribute('data-status', 'answered');
  expect(
    await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('cairn.interaction-draft.'))),
  ).toEqual([]);
});
