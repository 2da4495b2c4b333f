import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CairnHost, freePort } from './cairn-host';
import { expect, test } from './fixtures';

const PIXEL_9 =
  'Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

/**
 * A phone on another address of this machine (127.0.0.2, loopback only) pairs with the code the
 * desktop shows, follows a session, answers an approval and stops a turn; revoked from the desktop,
 * its page says it was signed out.
 */
test('a phone pairs with the code (Cancel withdraws a request), names the Cairn it shows, answers an approval and stops a turn, and is signed out when the desktop revokes it', async ({
  page,
  browser,
}) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cairn-e2e-devices-'));
  const workspace = mkdtempSync(join(tmpdir(), 'cairn-e2e-devices-ws-'));
  const cairn = new CairnHost(dataDir, randomBytes(12).toString('base64url'), await freePort(), {}, [
    '--listen',
    '127.0.0.2',
  ]);
  await cairn.start();
  const phoneContext = await browser.newContext({
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
    ignoreHTTPSErrors: true,
    userAgent: PIXEL_9,
  });
  try {
    const { reach } = await cairn.call('device.list', {});
    expect(reach.origin).toMatch(/^https:\/\/127\.0\.0\.2:\d+\/$/);
    const { session } = await cairn.call('session.create', {
      title: 'Release notes',
      workspacePath: workspace,
      permissionMode: 'ask',
    });
    await cairn.call('turn.start', {
      sessionId: session.sessionId,
      turnId: 'needs-approval',
      text: '/tool write_file {"path":"notes.md","content":"from the phone"}',
    });

    // The desktop shows a code with its QR code and countdown.
    await cairn.open(page);
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByRole('tab', { name: 'Devices' }).click();
    await expect(page.getByTestId('reach-fingerprint')).toHaveText(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    await page.getByTestId('pair-start').click();
    await expect(page.getByRole('img', { name: /QR code for https:\/\/127\.0\.0\.2/ })).toBeVisible();
    await expect(page.getByTestId('pair-offer')).toContainText(/Valid for [45]:\d\d more/);
    const code = (await page.getByTestId('pair-code').textContent()) ?? '';

    // The phone opens the reach address with no token: it offers to pair. A wrong code is refused plainly.
    const phone = await phoneContext.newPage();
    await phone.goto(reach.origin ?? '');
    const codeField = phone.getByRole('textbox', { name: 'Code' });
    await expect(phone.getByRole('textbox', { name: 'Name of this device' })).toHaveValue('Pixel 9');
    await codeField.fill('AAAA-AAAA');
    await phone.getByRole('button', { name: 'Pair this device' }).tap();
    await expect(phone.getByTestId('pairing-problem')).toHaveText('That code is not the one on show.');

    // The right code: the phone waits and the desktop asks "Pair Pixel 9?" — until Cancel on the phone withdraws it.
    await codeField.fill(code.toLowerCase());
    await phone.getByRole('button', { name: 'Pair this device' }).tap();
    await expect(phone.getByTestId('pairing-waiting')).toContainText('Waiting for the desktop to confirm');
    await expect(page.getByTestId('pair-request')).toContainText('Pair Pixel 9?');
    await phone.getByRole('button', { name: 'Cancel' }).tap();
    await expect(page.getByTestId('pair-request')).toHaveCount(0);
    await expect(phone.getByTestId('pairing-note')).toHaveText(/Pairing cancelled\. .*show a new code on the desktop/);
    await expect(codeField).toHaveValue('');

    // With a new code: the desktop asks again, and once confirmed the phone opens Cairn.
    await page.getByTestId('pair-start').click();
    const secondCode = (await page.getByTestId('pair-code').textContent()) ?? '';
    expect(secondCode).not.toBe(code);
    await codeField.fill(secondCode);
    await phone.getByRole('button', { name: 'Pair this device' }).tap();
    await expect(page.getByTestId('pair-request')).toContainText('Pair Pixel 9?');
    await page.getByRole('button', { name: 'Pair', exact: true }).click();
    await expect(page.getByTestId('device-row')).toContainText('Pixel 9');
    await expect(phone.getByRole('navigation', { name: 'Sessions' })).toBeAttached();
    expect(await phone.evaluate(() => window.localStorage.getItem('cairn.deviceCredential'))).toMatch(
      /^cairn-device\./,
    );

    // The phone's page names the Cairn it shows — this machine's name until the desktop chooses one; the
    // desktop's own page (loopback) does not.
    await expect(phone.getByTestId('welcome-host')).toHaveText(`This is the Cairn on ${hostname()}.`);
    await page.getByTestId('host-name-input').fill('workstation');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(phone.getByTestId('welcome-host')).toHaveText('This is the Cairn on workstation.');
    await phone.getByRole('button', { name: 'Show sidebar' }).tap();
    await expect(phone.getByTestId('host-chip')).toHaveText('on workstation');
    // …and does not say the sessions stay on the phone.
    await expect(phone.getByText('Your sessions stay on the Cairn host')).toHaveCount(1);
    await phone.getByTestId('sidebar-drawer-backdrop').tap({ position: { x: 370, y: 400 } });
    await expect(page.getByTestId('host-chip')).toHaveCount(0);
    await expect(page.getByText('Your sessions stay on this machine')).toBeVisible();

    // On the phone, Settings → Devices says devices are managed on the desktop.
    await phone.getByRole('button', { name: 'Settings' }).tap();
    await phone.getByRole('tab', { name: 'Devices' }).tap();
    await expect(phone.getByTestId('devices-managed-on-desktop')).toBeVisible();
    // Connections and keys stay on the desktop too, and the page says so instead of offering them.
    await phone.getByRole('tab', { name: 'Connections' }).tap();
    await expect(phone.getByTestId('settings-desktop-only')).toContainText('Only on the desktop.');
    await expect(phone.locator('.add-connection')).toHaveCount(0);
    await phone.getByRole('button', { name: 'Close settings' }).tap();

    // The phone follows the session and answers its approval; switching it to Full is left to the desktop.
    await phone.getByTestId('rail-waiting').tap();
    const full = phone.getByTestId('permission-mode').getByRole('radio', { name: /^Full/ });
    await expect(full).toBeDisabled();
    await expect(full).toContainText('only on the desktop');
    const approval = phone.locator('[data-testid="interaction"][data-kind="permission"]');
    await expect(approval.getByTestId('tool-diff')).toContainText('+from the phone');
    await approval.getByRole('button', { name: 'Allow once' }).tap();
    await expect(approval).toHaveAttribute('data-status', 'answered');
    // The record says who answered, on the phone and in the host's record.
    await expect(approval.getByTestId('interaction-outcome')).toContainText('Allowed once from Pixel 9');
    const { interactions } = await cairn.call('interaction.list', { sessionId: session.sessionId, status: 'answered' });
    expect(interactions[0]?.answeredFrom).toBe('Pixel 9');
    await expect(phone.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');

    // Stop pressed on the phone cancels a held turn.
    await cairn.call('turn.start', { sessionId: session.sessionId, turnId: 'held', text: '/hold' });
    await expect(phone.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'running');
    await phone.getByTestId('stop-button').tap();
    await expect(phone.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'cancelled');
    await expect(phone.getByTestId('turn-status').last()).toContainText('Stopped from Pixel 9');

    // Revoked from the desktop (which asks first): the phone's page says it was signed out.
    await page.getByRole('button', { name: 'Revoke Pixel 9' }).click();
    await page.getByRole('button', { name: 'Revoke', exact: true }).click();
    await expect(page.getByTestId('device-list')).toHaveCount(0);
    await expect(phone.getByTestId('pairing-problem')).toHaveText(/This device was signed out.*pair it again/);
    expect(await phone.evaluate(() => window.localStorage.getItem('cairn.deviceCredential'))).toBeNull();
    // Reloaded, it offers to pair again (not a message about tokens).
    await phone.reload();
    await expect(phone.getByRole('button', { name: 'Pair this device' })).toBeVisible();
    await expect(phone.getByText(/access token/)).toHaveCount(0);
  } finally {
    await phoneContext.close();
    await cairn.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  }
});
