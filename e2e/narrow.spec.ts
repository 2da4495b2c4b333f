import type { Page } from '@playwright/test';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

test('below 1000 px the sidebar starts hidden; Show sidebar brings it back, remembered across a reload; Ctrl+Shift+S hides it', async ({
  page,
  cairn,
}) => {
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
  test(`at ${width} px, even beside the sidebar, the session header fits: the title is cut short with a tooltip and Set goal moves into the menu`, async ({
    page,
    cairn,
  }) => {
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

test('at 1280 px the sidebar shows, the header keeps Set goal, and no entry label is cut off', async ({
  page,
  cairn,
}) => {
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

test.describe('on a phone (390×844, touch)', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('the session list is a drawer that closes on pick and keeps focus while open, what waits is one tap away, nothing scrolls sideways, Stop and the answers fit a thumb, no keys are advertised, and the page is installable', async ({
    page,
    cairn,
  }) => {
    const workspace = mkdtempSync(join(tmpdir(), 'cairn-e2e-phone-'));
    try {
      // A session with a folder (the workspace bar's permission modes, Commands and Changes) and a turn still running.
      const { session } = await cairn.call('session.create', {
        title: TITLE,
        workspacePath: workspace,
        permissionMode: 'ask',
      });
      await cairn.call('turn.start', {
        sessionId: session.sessionId,
        turnId: 'phone-write',
        text: '/tool write_file {"path":"plan.md","content":"spring"}',
      });
      const { session: asking } = await cairn.call('session.create', { title: 'Asks a question' });
      await cairn.call('turn.start', { sessionId: asking.sessionId, turnId: 'phone-ask', text: '/ask' });
      await cairn.open(page);
      /** The page never scrolls sideways (a mobile viewport would widen itself to fit, so the set width is what counts). */
      const pageWidth = () => page.evaluate(() => document.scrollingElement?.scrollWidth ?? Number.POSITIVE_INFINITY);

      // Nothing open: no shortcut advertised on a touch screen.
      await expect(page.getByText('Pick a session')).toBeVisible();
      await expect(page.getByText(/Alt\+N|on the left/)).toBeHidden();

      // What waits shows on the bar on top with its count, and one tap opens it.
      const waiting = page.getByTestId('rail-waiting');
      await expect(waiting).toHaveAccessibleName(/Waiting for you: [12] — go to the first/);
      await waiting.tap();
      await expect(page.locator('[data-testid="interaction"][data-status="pending"]').first()).toBeVisible();
      expect(await pageWidth()).toBeLessThanOrEqual(390);

      // The session list overlays the page instead of squeezing it, and closes once a session is picked.
      await page.getByRole('button', { name: 'Show sidebar' }).tap();
      const sidebar = page.locator('nav.sidebar');
      await expect(sidebar).toBeVisible();
      await expect(sidebar.locator('.search-shortcut')).toBeHidden();
      expect((await page.locator('.main-pane').boundingBox())?.width).toBe(390);
      expect((await sidebar.boundingBox())?.width ?? 0).toBeLessThan(390);
      await sidebar.getByTestId('session-row').filter({ hasText: 'Plan the spring release' }).tap();
      await expect(sidebar).toHaveCount(0);
      await expect(page.getByTestId('session-title')).toHaveAttribute('title', TITLE);
      // Picking the session already open closes it as well, and so does the backdrop.
      await page.getByRole('button', { name: 'Show sidebar' }).tap();
      await sidebar.getByTestId('session-row').filter({ hasText: 'Plan the spring release' }).tap();
      await expect(sidebar).toHaveCount(0);
      await page.getByRole('button', { name: 'Show sidebar' }).tap();
      await page.getByTestId('sidebar-drawer-backdrop').tap({ position: { x: 370, y: 400 } });
      await expect(sidebar).toHaveCount(0);
      // While it is open focus stays in it: Tab and Shift+Tab cycle there; Esc gives focus back to its button.
      const showSidebar = page.getByRole('button', { name: 'Show sidebar' });
      await showSidebar.tap();
      const focusInDrawer = () =>
        page.evaluate(() => document.querySelector('nav.sidebar')?.contains(document.activeElement) ?? false);
      await expect.poll(focusInDrawer).toBe(true);
      const stops = await sidebar.locator('button, input, [href], [tabindex="0"]').count();
      for (let press = 0; press <= stops; press += 1) {
        await page.keyboard.press('Tab');
        expect(await focusInDrawer()).toBe(true);
      }
      for (let press = 0; press <= stops; press += 1) {
        await page.keyboard.press('Shift+Tab');
        expect(await focusInDrawer()).toBe(true);
      }
      await page.keyboard.press('Escape');
      await expect(sidebar).toHaveCount(0);
      await expect(showSidebar).toBeFocused();

      // The approval with its diff, the toolbar and Changes all fit the width; Allow and Stop are thumb-sized.
      const approval = page.locator('[data-testid="interaction"][data-kind="permission"]');
      await expect(approval.getByTestId('tool-diff')).toContainText('+spring');
      expect(await pageWidth()).toBeLessThanOrEqual(390);
      const allow = approval.getByRole('button', { name: 'Allow once' });
      expect((await allow.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(44);
      const stop = page.getByTestId('stop-button');
      expect((await stop.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(44);
      await allow.tap();
      await expect(page.getByRole('button', { name: 'Changes' })).toBeInViewport({ ratio: 1 });
      expect(await pageWidth()).toBeLessThanOrEqual(390);
      // The Changes panel's rows wrap: Revert stays on screen.
      await page.getByRole('button', { name: 'Changes' }).tap();
      await expect(page.getByRole('button', { name: 'Revert file' })).toBeInViewport({ ratio: 1 });
      await page.getByRole('button', { name: 'Close changes' }).tap();

      // The composer spans the screen and grows a few lines, no more; no keys advertised.
      const composer = page.getByRole('textbox', { name: 'Message' });
      await composer.fill(
        'A message long enough to wrap over a few lines on a phone screen, so that the composer grows with it.',
      );
      const box = await composer.boundingBox();
      expect(box?.width ?? 0).toBeGreaterThanOrEqual(300);
      expect(box?.height ?? 0).toBeLessThanOrEqual(844 * 0.3);
      await expect(page.getByText(/Enter to send|Enter queues|Enter sends/)).toBeHidden();
      // A touch keyboard has no Shift+Enter: Enter starts a new line, and Send sends.
      await composer.press('Enter');
      await composer.pressSequentially('Second line');
      await expect(composer).toHaveValue(/grows with it\.\nSecond line$/);
      await page.getByRole('button', { name: 'Send' }).tap();
      await expect(page.locator('[data-kind="user_message"]').last()).toContainText('Second line');
      await expect(composer).toHaveValue('');

      // Settings fits too: its Close stays on screen, its tabs scroll sideways inside it.
      await page.getByRole('button', { name: 'Settings' }).tap();
      await expect(page.getByRole('tab', { name: 'Usage' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Close settings' })).toBeInViewport({ ratio: 1 });
      expect(await pageWidth()).toBeLessThanOrEqual(390);
      await page.getByRole('button', { name: 'Close settings' }).tap();
      await expect(page.getByRole('dialog')).toHaveCount(0);

      // Installable: the manifest (its own content type) and its icons, linked from the page; the service worker runs here.
      const manifestHref = await page.locator('link[rel="manifest"]').getAttribute('href');
      const manifestResponse = await page.request.get(new URL(manifestHref ?? '', page.url()).href);
      expect(manifestResponse.headers()['content-type']).toContain('application/manifest+json');
      const manifest = (await manifestResponse.json()) as {
        name: string;
        start_url: string;
        display: string;
        icons: Array<{ src: string; sizes: string; type: string }>;
      };
      expect(manifest).toMatchObject({ name: 'Cairn', start_url: './', display: 'standalone' });
      for (const size of ['192x192', '512x512']) {
        const icon = manifest.icons.find((candidate) => candidate.sizes === size);
        const response = await page.request.get(
          new URL(icon?.src ?? 'missing', new URL(manifestHref ?? '', page.url())).href,
        );
        expect(response.headers()['content-type']).toBe('image/png');
      }
      expect(
        await page.evaluate(() =>
          navigator.serviceWorker.ready.then((registration) => registration.active?.scriptURL ?? ''),
        ),
      ).toMatch(/\/sw\.js$/);

      mkdirSync(artifacts, { recursive: true });
      await page.screenshot({ path: join(artifacts, 'phone-390.png') });
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.screenshot({ path: join(artifacts, 'phone-390-dark.png') });
    } finally {
      rmSync(workspace, { recursive: true, force: true });
    }
  });
});
