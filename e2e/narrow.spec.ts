import type { Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type CairnHost } from './fixtures';

const TITLE = 'Plan the spring release of the garden planner app with the whole team';
const artifacts = join(process.cwd(), 'e2e-artifacts');

async function openSession(page: Page, cairn: CairnHost) {
  const { session } = await cairn.call('session.create', { title: TITLE });
  await cairn.call('turn.start', { sessionId: session.sessionId, turnId: 'narrow-1', text: 'Hello there' });
  await cairn.open(page);
}

/** Whether the page, or the element, is wider than what it shows (it would scroll sideways). */
const overflows = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((element) => element.scrollWidth > element.clientWidth);

test('below 1000 px the sidebar starts hidden; Show sidebar brings it back, remembered across a reload; Ctrl+Shift+S hides it', async ({ page, cairn }) => {
  await page.setViewportSize({ width: 900, height: 700 });
  await openSession(page, cairn);
  const sidebar = page.locator('nav.sidebar');
  const rail = page.getByTestId('sidebar-rail');
  await expect(rail).toBeVisible();
  await expect(sidebar).toHaveCount(0);

  // The rail keeps what the sidebar shows at a glance: what waits for you (a jump to it), the WorkHub and Automations.
  await expect(rail.getByTestId('rail-waiting')).toHaveCount(0);
  const { session: asking } = await cairn.call('session.create', { title: 'Asks a question' });
  await cairn.call('turn.start', { sessionId: asking.sessionId, turnId: 'narrow-ask', text: '/ask' });
  const waiting = rail.getByRole('button', { name: 'Waiting for you: 1 — go to the first' });
  await expect(waiting).toContainText('1');
  await rail.getByRole('button', { name: 'WorkHub' }).click();
  await expect(page.getByTestId('workhub-view')).toBeVisible();
  await expect(rail.getByRole('button', { name: 'WorkHub' })).toHaveAttribute('aria-current', 'page');
  await rail.getByRole('button', { name: 'Automations' }).click();
  await expect(page.getByRole('region', { name: 'Automations' })).toBeVisible();
  await waiting.click();
  await expect(page.getByTestId('session-title')).toHaveText('Asks a question');
  await expect(page.locator('[data-testid="interaction"][data-status="pending"]')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Automations' })).toHaveCount(0);
  await expect(sidebar).toHaveCount(0);

  await page.getByRole('button', { name: 'Show sidebar' }).click();
  await expect(sidebar).toBeVisible();
  await page.reload();
  await expect(sidebar).toBeVisible();
  await page.getByTestId('session-row').filter({ hasText: 'Plan the spring release' }).click();
  await expect(page.getByTestId('session-title')).toHaveAttribute('title', TITLE);

  await page.keyboard.press('Control+Shift+S');
  await expect(sidebar).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('sidebar-rail')).toBeVisible();
  await expect(sidebar).toHaveCount(0);
  // Ctrl+K still finds the search: it opens the sidebar for it.
  await page.keyboard.press('Control+K');
  await expect(page.getByRole('searchbox', { name: 'Search sessions' })).toBeFocused();
});

for (const width of [760, 900]) {
  test(`at ${width} px, even beside the sidebar, the session header fits: the title is cut short with a tooltip and Set goal moves into the menu`, async ({ page, cairn }) => {
    await page.setViewportSize({ width, height: 700 });
    await openSession(page, cairn);
    await page.getByRole('button', { name: 'Show sidebar' }).click();
    await page.getByTestId('session-row').first().click();
    const title = page.getByTestId('session-title');
    await expect(title).toHaveAttribute('title', TITLE);
    await expect(page.locator('[data-kind="assistant_message"]').last()).toContainText('Hello there');

    expect(await overflows(page, 'html')).toBe(false);
    expect(await overflows(page, '.session-header')).toBe(false);
    // The title is readable (a few words at least) and cut short rather than pushed out.
    expect((await title.boundingBox())?.width ?? 0).toBeGreaterThanOrEqual(100);
    expect(await overflows(page, '[data-testid="session-title"]')).toBe(true);

    const header = page.locator('.session-header');
    await expect(header.getByRole('button', { name: 'Set goal' })).toBeHidden();
    await header.getByRole('button', { name: 'Conversation menu' }).click();
    await expect(page.getByTestId('menu-session-usage')).toContainText('tokens');
    await page.getByRole('menuitem', { name: 'Set goal…' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();

    mkdirSync(artifacts, { recursive: true });
    await page.keyboard.press('Escape');
    await page.screenshot({ path: join(artifacts, `narrow-${width}.png`) });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: join(artifacts, `narrow-${width}-dark.png`) });
  });
}

test('at 1280 px the sidebar shows, the header keeps Set goal, and no entry label is cut off', async ({ page, cairn }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openSession(page, cairn);
  await page.getByTestId('session-row').first().click();
  await expect(page.locator('.session-header').getByRole('button', { name: 'Set goal' })).toBeVisible();
  const automations = page.getByTestId('automations-entry');
  await expect(automations).toContainText('Scheduled tasks and the daily review');
  expect(await overflows(page, '[data-testid="automations-entry"] .workhub-entry-sub')).toBe(false);
  expect(await overflows(page, 'html')).toBe(false);
  await page.screenshot({ path: join(artifacts, 'wide-1280.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: join(artifacts, 'wide-1280-dark.png') });
});
