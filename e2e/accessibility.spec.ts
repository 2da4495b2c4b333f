import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { CairnHost, expect, test } from './fixtures';

interface View {
  readonly name: string;
  /** It changes what the host holds (e.g. starts agents), so it gets a host of its own. */
  readonly changesHost?: boolean;
  open(page: Page): Promise<void>;
}

/**
 * Every view, audited with axe-core in light and dark. To audit a new view, add one line here:
 * its name and how to reach it from a freshly opened app with one seeded session.
 */
const VIEWS: readonly View[] = [
  { name: 'welcome', open: async () => {} },
  { name: 'session transcript', open: async (page) => openSession(page) },
  {
    name: 'help',
    open: async (page) => {
      await page.keyboard.press('Control+/');
      await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
    },
  },
  {
    name: 'settings: connections',
    open: async (page) => {
      await page.getByRole('button', { name: 'Settings', exact: true }).click();
      await expect(page.getByTestId('settings')).toBeVisible();
    },
  },
  {
    name: 'settings: usage',
    open: async (page) => {
      await page.getByRole('button', { name: 'Settings', exact: true }).click();
      await page.getByRole('tab', { name: 'Usage' }).click();
      await expect(page.getByRole('tab', { name: 'Usage' })).toHaveAttribute('aria-selected', 'true');
    },
  },
  {
    name: 'delete dialog',
    open: async (page) => {
      const row = page.getByTestId('session-row').first();
      await row.hover();
      await row.getByRole('button', { name: 'Delete' }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
    },
  },
  {
    name: 'workhub',
    open: async (page) => {
      await page.getByTestId('workhub-entry').click();
      await expect(page.getByTestId('workhub-view')).toBeVisible();
    },
  },
  {
    name: 'automations',
    open: async (page) => {
      await page.getByTestId('automations-entry').click();
      await expect(page.getByTestId('daily-review')).toBeVisible();
    },
  },
  {
    name: 'settings: memory',
    open: async (page) => {
      await page.getByRole('button', { name: 'Settings', exact: true }).click();
      await page.getByRole('tab', { name: 'Memory' }).click();
      await expect(page.getByRole('tab', { name: 'Memory' })).toHaveAttribute('aria-selected', 'true');
    },
  },
  {
    name: 'settings: tools (MCP)',
    open: async (page) => {
      await page.getByRole('button', { name: 'Settings', exact: true }).click();
      await page.getByRole('tab', { name: 'Tools (MCP)' }).click();
      await expect(page.getByRole('tab', { name: 'Tools (MCP)' })).toHaveAttribute('aria-selected', 'true');
    },
  },
  {
    name: 'settings: sandbox',
    open: async (page) => {
      await page.getByRole('button', { name: 'Settings', exact: true }).click();
      await page.getByRole('tab', { name: 'Sandbox' }).click();
      await expect(page.getByTestId('sandbox-status')).toBeVisible();
    },
  },
  {
    name: 'settings: hooks',
    open: async (page) => {
      await page.getByRole('button', { name: 'Settings', exact: true }).click();
      await page.getByRole('tab', { name: 'Hooks' }).click();
      await expect(page.getByTestId('hooks-settings')).toContainText('Hooks in effect');
    },
  },
  {
    name: 'model picker, open',
    open: async (page) => {
      await openSession(page);
      await page.getByRole('button', { name: /^Connection and model for the next turn/ }).click();
      await expect(page.getByRole('listbox')).toBeVisible();
    },
  },
  {
    name: 'slash menu, open',
    open: async (page) => {
      await openSession(page);
      await page.getByRole('textbox', { name: 'Message' }).fill('/');
      await expect(page.getByRole('option', { name: /\/hold/ })).toBeVisible();
    },
  },
  {
    name: 'sidebar hidden',
    open: async (page) => {
      await openSession(page);
      await page.getByRole('button', { name: 'Hide sidebar' }).click();
      await expect(page.getByTestId('sidebar-rail')).toBeVisible();
    },
  },
  {
    name: 'settings: instructions',
    open: async (page) => {
      await page.getByRole('button', { name: 'Settings', exact: true }).click();
      await page.getByRole('tab', { name: 'Instructions' }).click();
      await expect(page.getByRole('tab', { name: 'Instructions' })).toHaveAttribute('aria-selected', 'true');
    },
  },
  {
    name: 'subagents: spawn cards and nested sidebar',
    changesHost: true,
    open: async (page) => {
      await spawnTwoChildren(page);
      await page.getByTestId('agent-children-toggle').click();
      await expect(page.getByTestId('agent-child-row')).toHaveCount(2);
    },
  },
  {
    name: 'subagents: child view with breadcrumb',
    changesHost: true,
    open: async (page) => {
      await spawnTwoChildren(page);
      await page.getByTestId('spawn-card').first().getByRole('link').click();
      await expect(page.getByTestId('agent-breadcrumb')).toBeVisible();
    },
  },
];

/** A new session whose agent starts two child agents that keep running. */
async function spawnTwoChildren(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'New session', exact: true }).first().click();
  await page.getByRole('textbox', { name: 'Message' }).fill('/spawn-many 2 worker "/hold" wait');
  await page.getByRole('textbox', { name: 'Message' }).press('Enter');
  await expect(page.getByTestId('spawn-card').nth(1)).toHaveAttribute('data-status', 'running');
}

async function openSession(page: Page): Promise<void> {
  await page.getByTestId('session-row').filter({ hasText: 'Audited session' }).getByRole('button').first().click();
  await expect(page.locator('[data-kind="assistant_message"]').first()).toBeVisible();
}

async function seed(cairn: CairnHost): Promise<void> {
  const { session } = await cairn.call('session.create', { title: 'Audited session' });
  await cairn.call('turn.start', {
    sessionId: session.sessionId,
    turnId: 'audit-turn',
    text: 'Hello, please answer with some **Markdown** and `code`.',
  });
}

/**
 * Waits until the page's colours have stopped moving. Switching the colour scheme starts CSS transitions
 * (backgrounds and borders ease over 120 ms) and an overlay fades in: axe sampling a colour mid-way
 * reports a contrast that no one sees at rest. Reading a layout property makes the browser recompute
 * styles now, so the switch's transitions exist; then every finite animation and transition is awaited
 * (infinite ones, such as a spinner's, never finish), again while a finished one started another.
 */
async function settleAnimations(page: Page): Promise<void> {
  await page.evaluate(async () => {
    for (;;) {
      void document.documentElement.offsetHeight;
      const running = document
        .getAnimations()
        .filter(
          (animation) =>
            animation.playState === 'running' && animation.effect?.getComputedTiming().endTime !== Infinity,
        );
      if (running.length === 0) return;
      // A cancelled animation rejects `finished`; it has stopped all the same.
      await Promise.all(running.map((animation) => animation.finished.catch(() => undefined)));
    }
  });
}

/** The serious and critical violations axe finds on the page as it is now (at rest), one line each. */
async function seriousViolations(page: Page): Promise<string[]> {
  await settleAnimations(page);
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.nodes
          .map((node) => node.target.join(' '))
          .slice(0, 5)
          .join(', ')}`,
    );
}

/**
 * Views that leave the host as they found it share one host (and its seeded session), four to a test:
 * each is audited in the app as freshly opened. A view that changes the host has one of its own.
 */
const VIEWS_PER_HOST = 4;

function hostsFor(views: readonly View[]): View[][] {
  const sharing = views.filter((view) => view.changesHost !== true);
  const groups: View[][] = [];
  for (let start = 0; start < sharing.length; start += VIEWS_PER_HOST)
    groups.push(sharing.slice(start, start + VIEWS_PER_HOST));
  return [...groups, ...views.filter((view) => view.changesHost === true).map((view) => [view])];
}

/**
 * The app as first opened, in light: what the previous view left in the page's storage (a draft, the
 * sidebar hidden) cleared, and the page loaded anew.
 */
async function openFresh(page: Page, cairn: CairnHost): Promise<void> {
  if (page.url() !== 'about:blank') {
    await page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
    await page.goto('about:blank');
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await cairn.open(page);
}

// The tests of this file share nothing (each has its own host), so they spread over both workers.
test.describe.configure({ mode: 'parallel' });

// Each view is audited in light and then in dark, its result its own (soft) assertion: the colours follow
// the page's colour scheme (CSS light-dark()), so switching it in place audits the same view in both.
for (const views of hostsFor(VIEWS)) {
  const names = views.map((view) => view.name).join('; ');
  test(`axe finds no serious or critical violations, light and dark: ${names}`, async ({ page, cairn }) => {
    // axe walks the whole page in the renderer's thread, twice a view: seconds of work on a busy machine.
    test.setTimeout(90_000 * views.length);
    await seed(cairn);
    for (const view of views) {
      await test.step(view.name, async () => {
        await openFresh(page, cairn);
        await view.open(page);
        const found: string[] = [];
        for (const colorScheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme });
          await expect
            .poll(() => page.evaluate(() => window.matchMedia('(prefers-color-scheme: dark)').matches))
            .toBe(colorScheme === 'dark');
          for (const violation of await seriousViolations(page)) found.push(`${colorScheme}: ${violation}`);
        }
        expect.soft(found, `serious or critical violations: ${view.name}`).toEqual([]);
      });
    }
  });
}

test('the session list is one Tab stop; arrow keys move between sessions and reach their actions', async ({
  page,
  cairn,
}) => {
  for (const title of ['First', 'Second', 'Third']) await cairn.call('session.create', { title });
  await cairn.open(page);
  const mains = page.getByTestId('session-row').getByRole('button');
  await expect(page.getByTestId('session-row')).toHaveCount(3);
  // Exactly one element of the list is in the Tab order.
  const tabbable = await page
    .locator('.session-list [tabindex="0"], .session-list button:not([tabindex="-1"])')
    .count();
  expect(tabbable).toBe(1);
  const first = page.getByTestId('session-row').nth(0).locator('.session-row-main');
  await first.focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('session-row').nth(1).locator('.session-row-main')).toBeFocused();
  await page.keyboard.press('End');
  await expect(page.getByTestId('session-row').nth(2).locator('.session-row-main')).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('session-row').nth(2).getByRole('button', { name: 'Rename' })).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('session-row').nth(2)).toHaveClass(/is-selected/);
  expect(await mains.count()).toBeGreaterThan(3);
});

test('keyboard only: from an opened app to a sent message in at most five key presses', async ({ page, cairn }) => {
  for (let index = 0; index < 12; index += 1) await cairn.call('session.create', { title: `Session ${index}` });
  await cairn.open(page);
  // Nothing has focus yet: the first Tab starts from the top of the page.
  let presses = 0;
  const press = async (key: string) => {
    presses += 1;
    await page.keyboard.press(key);
  };
  await press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to the message box' })).toBeFocused();
  await press('Enter');
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeFocused();
  await page.keyboard.type('Sent by keyboard alone');
  await press('Enter');
  await expect(page.locator('[data-kind="user_message"]').last()).toHaveText('Sent by keyboard alone');
  await expect(page.getByTestId('session-row').first()).toHaveClass(/is-selected/);
  expect(presses).toBeLessThanOrEqual(5);

  // The shortcut reaches the message box from anywhere.
  await page
    .getByRole('searchbox', { name: 'Search sessions' })
    .or(page.getByRole('textbox', { name: 'Search sessions' }))
    .focus();
  await page.keyboard.press('Control+Shift+L');
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeFocused();
});

test('closing a dialog returns focus to the control that opened it', async ({ page, cairn }) => {
  await cairn.open(page);
  const settingsButton = page.getByRole('button', { name: 'Settings', exact: true });
  await settingsButton.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('settings')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('settings')).toBeHidden();
  await expect(settingsButton).toBeFocused();
});
