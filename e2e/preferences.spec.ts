import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

async function openGeneral(page: Page) {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByRole('tab', { name: 'General' }).click();
  return settings;
}

const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

test('theme and text size: chosen in Settings, applied at once, remembered, and in place before the first paint; Settings → Storage shows sizes and reclaims space', async ({
  page,
  cairn,
}) => {
  test.setTimeout(120_000);
  // What the page looks like at its first frame: a frame callback registered before any of the page's own scripts.
  await page.addInitScript(() => {
    requestAnimationFrame(() => {
      (window as unknown as { firstFrame: unknown }).firstFrame = {
        theme: document.documentElement.getAttribute('data-theme'),
        textSize: document.documentElement.getAttribute('data-text-size'),
        background: document.body === null ? null : getComputedStyle(document.body).backgroundColor,
      };
    });
  });
  await page.emulateMedia({ colorScheme: 'light' });
  await cairn.open(page);
  expect(await background(page)).toBe('rgb(255, 255, 255)');

  const settings = await openGeneral(page);
  await expect(settings.getByRole('radio', { name: 'System' })).toBeChecked();
  await settings.getByRole('radio', { name: 'Dark' }).check();
  await expect.poll(() => background(page)).toBe('rgb(26, 26, 28)');
  await settings.getByRole('radio', { name: 'Large' }).check();
  await expect.poll(() => page.evaluate(() => getComputedStyle(document.documentElement).zoom)).toBe('1.15');

  await page.reload();
  await page.getByRole('navigation', { name: 'Sessions' }).waitFor();
  expect(await page.evaluate(() => (window as unknown as { firstFrame: unknown }).firstFrame)).toEqual({
    theme: 'dark',
    textSize: 'large',
    background: 'rgb(26, 26, 28)',
  });

  // System follows the OS again.
  await openGeneral(page);
  await page.getByRole('radio', { name: 'System' }).check();
  await expect.poll(() => background(page)).toBe('rgb(255, 255, 255)');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(() => background(page)).toBe('rgb(26, 26, 28)');

  // Settings → Storage: the data directory's parts by size, and Reclaim space running to its end.
  await settings.getByRole('tab', { name: 'Storage' }).click();
  const storage = settings.getByTestId('storage-settings');
  await expect(storage.getByRole('row', { name: /^Database [\d.,]+ (bytes|KB|MB)/ })).toBeVisible();
  await expect(storage.getByRole('row', { name: /Offloaded tool output/ })).toBeVisible();
  await expect(storage.getByRole('row', { name: /File checkpoints/ })).toBeVisible();
  await expect(storage.getByRole('row', { name: /Worktrees/ })).toBeVisible();
  await storage.getByRole('button', { name: 'Reclaim space' }).click();
  await expect(storage.getByTestId('storage-reclaim-result')).toHaveText(/Done: the database is .+ smaller\./, {
    timeout: 30_000,
  });
  await expect(storage.getByRole('button', { name: 'Reclaim space' })).toBeEnabled();
  // Settings → Editors: the exact cairn acp command for this host, and Zed's settings running it.
  const settings2 = page.getByRole('dialog', { name: 'Settings' });
  await settings2.getByRole('tab', { name: 'Editors' }).click();
  const launcher = join(process.cwd(), 'bin', 'cairn.mjs');
  await expect(settings2.getByTestId('editor-command')).toHaveText(`node ${launcher} acp --data-dir ${cairn.dataDir}`);
  const zed = JSON.parse((await settings2.getByTestId('editor-zed-snippet').textContent()) ?? '') as unknown;
  expect(zed).toEqual({
    agent_servers: {
      Cairn: { type: 'custom', command: 'node', args: [launcher, 'acp', '--data-dir', cairn.dataDir], env: {} },
    },
  });
  // More tabs than fit scroll sideways: the close button stays in view.
  await expect(settings2.getByRole('button', { name: 'Close settings' })).toBeInViewport();
});

test('desktop notifications: turned on from Settings (asking once), then a finished turn and a waiting question notify while the tab is in the background', async ({
  page,
  cairn,
}) => {
  test.setTimeout(150_000);
  // The Notification API, observed: what is shown, and how often permission is asked. The tab's
  // background state is a switch the test flips (document.hidden and hasFocus).
  await page.addInitScript(() => {
    const shown: Array<{ title: string; body: string }> = [];
    const state = { permission: 'default', asked: 0, background: false };
    class RecordingNotification {
      static get permission() {
        return state.permission;
      }
      static requestPermission() {
        state.asked += 1;
        state.permission = 'granted';
        return Promise.resolve('granted');
      }
      onclick: unknown = null;
      constructor(title: string, options: { body: string }) {
        shown.push({ title, body: options.body });
      }
    }
    Object.defineProperty(window, 'Notification', { value: RecordingNotification, configurable: true, writable: true });
    Object.defineProperty(document, 'hidden', { get: () => state.background, configurable: true });
    document.hasFocus = () => !state.background;
    Object.assign(window, { notes: { shown, state } });
  });
  type Notes = { shown: Array<{ title: string; body: string }>; state: { asked: number; background: boolean } };
  const notes = () => page.evaluate(() => (window as unknown as { notes: Notes }).notes);
  const setBackground = (value: boolean) =>
    page.evaluate((hidden) => void ((window as unknown as { notes: Notes }).notes.state.background = hidden), value);

  await cairn.call('session.create', { title: 'Garden' });
  await cairn.open(page);
  const settings = await openGeneral(page);
  const toggle = settings.getByRole('checkbox', { name: /Notify me when a turn finishes/ });
  await expect(toggle).not.toBeChecked();
  await expect(settings.getByTestId('notifications-note')).toContainText('ask once');
  expect((await notes()).state.asked).toBe(0);
  await toggle.check();
  await expect(toggle).toBeChecked();
  expect((await notes()).state.asked).toBe(1);
  await page.keyboard.press('Escape');

  await page.getByTestId('session-row').filter({ hasText: 'Garden' }).click();
  const composer = page.getByRole('textbox', { name: 'Message' });
  // In the foreground: no note.
  await composer.fill('/stream 2 10');
  await composer.press('Enter');
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');
  expect((await notes()).shown).toEqual([]);

  await setBackground(true);
  await composer.fill('/stream 3 300');
  await composer.press('Enter');
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');
  await expect.poll(async () => (await notes()).shown).toEqual([{ title: 'Garden', body: 'The answer is ready.' }]);

  await composer.fill('/ask');
  await composer.press('Enter');
  await expect.poll(async () => (await notes()).shown.at(-1)?.title).toBe('Garden is waiting for you');

  // Turned off: nothing more, and permission is never asked again.
  await setBackground(false);
  await openGeneral(page);
  await toggle.uncheck();
  await page.keyboard.press('Escape');
  const before = (await notes()).shown.length;
  await page.getByRole('button', { name: 'New session', exact: true }).first().click();
  await setBackground(true);
  await composer.fill('/stream 2 300');
  await composer.press('Enter');
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');
  expect((await notes()).shown).toHaveLength(before);
  expect((await notes()).state.asked).toBe(1);
});
