import type { Page } from '@playwright/test';
import { CairnHost, expect, test } from './fixtures';

/** A root session seeded over the protocol, opened in the page, with `text` sent from the composer. */
async function startRoot(page: Page, cairn: CairnHost, title: string, text: string): Promise<string> {
  const { session } = await cairn.call('session.create', { title });
  await cairn.open(page);
  await page.getByTestId('session-row').filter({ hasText: title }).locator('.session-row-main').click();
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill(text);
  await composer.press('Enter');
  return session.sessionId;
}

const childRows = (page: Page) => page.getByTestId('agent-child-row');

test('two children: spawn cards with live status, a child opened from its card (breadcrumb back), Stop on the root stops both', async ({
  page,
  cairn,
}) => {
  const rootId = await startRoot(page, cairn, 'Release plan', '/spawn-many 2 worker "/hold" wait');
  const cards = page.getByTestId('spawn-card');
  await expect(cards).toHaveCount(2);
  await expect(cards.nth(0)).toHaveAttribute('data-status', 'running');
  await expect(cards.nth(1)).toHaveAttribute('data-status', 'running');
  await expect(cards.nth(0)).toContainText('Worker');
  await expect(cards.nth(0)).toContainText('/hold');

  // The sidebar nests both children under the root, closed, saying how many work.
  const group = page
    .getByTestId('agent-children')
    .filter({ has: page.getByRole('button', { name: /2 child agents/ }) });
  await expect(group.getByTestId('agent-children-toggle')).toHaveAttribute('aria-expanded', 'false');
  await expect(group.getByTestId('agent-live-count')).toHaveText('2 working');
  await expect(page.getByTestId('session-row')).toHaveCount(1);

  // Stop says what else it stops.
  await expect(page.getByRole('button', { name: 'Stop — also stops 2 child agents' })).toBeVisible();

  // Open the first child from its card: its transcript, a breadcrumb back, its row shown under the open root.
  const firstChildId = await cards.nth(0).getAttribute('data-child-session-id');
  await cards
    .nth(0)
    .getByRole('link', { name: /Open transcript/ })
    .click();
  await expect(page.getByTestId('session-title')).toHaveText('Worker: hold');
  const crumb = page.getByRole('navigation', { name: 'Agent tree' });
  await expect(crumb).toContainText('Release plan');
  await expect(crumb).toContainText('Worker agent');
  await expect(crumb.getByTestId('agent-status')).toHaveText('running');
  await expect(childRows(page)).toHaveCount(2);
  await expect(childRows(page).filter({ has: page.locator('[aria-current="page"]') })).toHaveAttribute(
    'data-session-id',
    firstChildId ?? '',
  );
  expect(page.url()).toContain(`session=${firstChildId}`);

  await crumb.getByRole('link', { name: 'Release plan' }).click();
  await expect(page.getByTestId('session-title')).toHaveText('Release plan');

  await page.getByRole('button', { name: 'Stop — also stops 2 child agents' }).click();
  await expect(cards.nth(0)).toHaveAttribute('data-status', 'cancelled');
  await expect(cards.nth(1)).toHaveAttribute('data-status', 'cancelled');
  await expect(childRows(page).nth(0)).toHaveAttribute('data-status', 'cancelled');
  await expect(childRows(page).nth(1)).toHaveAttribute('data-status', 'cancelled');
  await expect(childRows(page).nth(0).getByTestId('agent-status')).toHaveAttribute(
    'title',
    'cancelled — the agent that started it was stopped',
  );
  await expect(group.getByTestId('agent-live-count')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Stop/ })).toHaveCount(0);
  // The record agrees with the screen.
  const { tree } = await cairn.call('agent.tree', { sessionId: rootId });
  expect(tree.children.map((child) => [child.status, child.terminalReason])).toEqual([
    ['cancelled', 'parent_stopped'],
    ['cancelled', 'parent_stopped'],
  ]);
});

test('a child’s question waits for you, labelled with its parent; answered from there, the parent goes on', async ({
  page,
  cairn,
}) => {
  await startRoot(page, cairn, 'Deploy check', '/spawn worker "/ask" wait');
  const card = page.getByTestId('spawn-card');
  await expect(card).toHaveAttribute('data-status', 'waiting');
  await expect(card.getByTestId('agent-status')).toHaveText('waiting for you');
  const waiting = page.getByTestId('waiting-item');
  await expect(waiting).toHaveCount(1);
  await expect(waiting).toContainText('Deploy check › Worker agent');
  await expect(page.getByTestId('agent-live-count')).toHaveText('1 waiting for you');

  await waiting.click();
  await expect(page.getByRole('navigation', { name: 'Agent tree' })).toContainText('Deploy check');
  const question = page.getByTestId('interaction').last();
  await expect(question).toHaveAttribute('data-status', 'pending');
  await question.getByRole('button', { name: 'Skip' }).click();
  await expect(question).toHaveAttribute('data-status', 'declined');
  await expect(page.getByTestId('waiting-list')).toHaveCount(0);

  await page.getByRole('navigation', { name: 'Agent tree' }).getByRole('link', { name: 'Deploy check' }).click();
  await expect(page.getByTestId('spawn-card')).toHaveAttribute('data-status', 'completed');
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');
});

test('nested children are reached with the arrow keys inside the list’s one Tab stop', async ({ page, cairn }) => {
  await startRoot(page, cairn, 'Keyboard tree', '/spawn-many 2 wait');
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');
  const tabbable = () =>
    page.locator('.session-list [tabindex="0"], .session-list button:not([tabindex="-1"])').count();
  expect(await tabbable()).toBe(1);
  const root = page.getByTestId('session-row').locator('.session-row-main');
  await root.focus();
  await page.keyboard.press('ArrowDown');
  const toggle = page.getByTestId('agent-children-toggle');
  await expect(toggle).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(childRows(page)).toHaveCount(2);
  await expect(childRows(page).nth(0)).toHaveAttribute('data-status', 'completed');
  await page.keyboard.press('ArrowDown');
  await expect(childRows(page).nth(0).locator('button')).toBeFocused();
  await page.keyboard.press('End');
  await expect(childRows(page).nth(1).locator('button')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('navigation', { name: 'Agent tree' })).toContainText('Keyboard tree');
  // The open child now holds the list's one Tab stop.
  expect(await tabbable()).toBe(1);
  await expect(childRows(page).nth(1).locator('button')).toHaveAttribute('tabindex', '0');
  await childRows(page).nth(1).locator('button').focus();
  await page.keyboard.press('Home');
  await expect(root).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowLeft');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(childRows(page)).toHaveCount(0);
  // Closed, the root's row holds the Tab stop for its open child.
  await expect(root).toHaveAttribute('tabindex', '0');
});

test('a root whose own turn ended while its children still work offers Stop for the tree', async ({ page, cairn }) => {
  const rootId = await startRoot(page, cairn, 'Background helpers', '/spawn-many 2 worker "/hold"');
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');
  const stop = page.getByRole('button', { name: 'Stop — also stops 2 child agents' });
  await expect(stop).toBeVisible();
  await stop.click();
  await expect(page.getByTestId('spawn-card').nth(0)).toHaveAttribute('data-status', 'cancelled');
  await expect(page.getByTestId('spawn-card').nth(1)).toHaveAttribute('data-status', 'cancelled');
  await expect(stop).toHaveCount(0);
  const { tree } = await cairn.call('agent.tree', { sessionId: rootId });
  expect(tree.children.map((child) => child.status)).toEqual(['cancelled', 'cancelled']);
});

test('after the host is killed with children running and restarted, cards and the sidebar say interrupted', async ({
  page,
  cairn,
}) => {
  await startRoot(page, cairn, 'Killed tree', '/spawn-many 2 worker "/hold" wait');
  const cards = page.getByTestId('spawn-card');
  await expect(cards.nth(1)).toHaveAttribute('data-status', 'running');
  await cairn.kill();
  await expect(page.getByTestId('connection-banner')).toBeVisible();
  await cairn.start();
  await expect(page.getByTestId('connection-banner')).toBeHidden({ timeout: 15_000 });
  await expect(cards.nth(0)).toHaveAttribute('data-status', 'interrupted');
  await expect(cards.nth(1)).toHaveAttribute('data-status', 'interrupted');
  await page.getByTestId('agent-children-toggle').click();
  await expect(childRows(page).nth(0)).toHaveAttribute('data-status', 'interrupted');
  await expect(childRows(page).nth(0).getByTestId('agent-status')).toHaveAttribute(
    'title',
    'interrupted — the app restarted',
  );
  await expect(page.getByRole('button', { name: /^Stop/ })).toHaveCount(0);
});
