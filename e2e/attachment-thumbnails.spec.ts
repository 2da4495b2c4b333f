import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import {
  startOpenAIChatServer,
  TEST_API_KEY,
  textReply,
  type ProviderTestServer,
} from '../src-main/testing/provider-servers';
import { expect, test } from './fixtures';

/** A real PNG of one colour (what a screenshot tool would save), small enough to read at a glance. */
function solidPng(width: number, height: number, [r, g, b]: readonly [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [r, g, b]).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

let server: ProviderTestServer;
test.beforeEach(async () => {
  server = await startOpenAIChatServer({ models: ['gpt-4o-mini'] });
});
test.afterEach(async () => {
  await server.close();
});

test('an attached image shows as a thumbnail in the composer and in the transcript, named by its file', async ({
  page,
  cairn,
}) => {
  const { connection } = await cairn.call('connection.create', {
    name: 'Vision server',
    providerType: 'openai_compatible',
    baseUrl: server.baseUrl,
    apiKey: TEST_API_KEY,
  });
  await cairn.call('session.create', {
    title: 'Looking at pictures',
    connectionId: connection.connectionId,
    model: 'gpt-4o-mini',
  });
  await cairn.open(page);
  await page.getByTestId('session-row').filter({ hasText: 'Looking at pictures' }).locator('.session-row-main').click();

  await page
    .getByTestId('attachment-input')
    .setInputFiles({ name: 'teal-square.png', mimeType: 'image/png', buffer: solidPng(48, 32, [36, 106, 99]) });
  const pending = page.getByTestId('pending-attachment').getByRole('img', { name: 'teal-square.png' });
  await expect(pending).toBeVisible();
  // The browser decoded the bytes the host stored: a real image, not a broken icon.
  await expect.poll(() => pending.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(48);
  if (process.env.CAIRN_SCREENSHOTS !== undefined)
    await page.screenshot({ path: `${process.env.CAIRN_SCREENSHOTS}/thumbnail-pending.png` });

  server.enqueue(textReply('A teal square.'));
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill('What is this?');
  await composer.press('Enter');
  await expect(page.locator('[data-kind="assistant_message"]').last()).toHaveText('A teal square.');
  await page.reload();
  await page.getByTestId('session-row').filter({ hasText: 'Looking at pictures' }).locator('.session-row-main').click();
  const sent = page.getByTestId('sent-attachment').getByRole('img', { name: 'teal-square.png' });
  await expect(sent).toBeVisible();
  await expect.poll(() => sent.evaluate((image: HTMLImageElement) => image.naturalHeight)).toBe(32);
  if (process.env.CAIRN_SCREENSHOTS !== undefined)
    await page.screenshot({ path: `${process.env.CAIRN_SCREENSHOTS}/thumbnail-sent.png` });
});

test('a follow-up queued while a turn runs keeps its file, and the provider receives it when the follow-up runs', async ({
  page,
  cairn,
}) => {
  const { connection } = await cairn.call('connection.create', {
    name: 'Test server',
    providerType: 'openai_compatible',
    baseUrl: server.baseUrl,
    apiKey: TEST_API_KEY,
  });
  const workspace = mkdtempSync(join(tmpdir(), 'cairn-e2e-queue-files-'));
  const { session } = await cairn.call('session.create', {
    title: 'Queue with files',
    workspacePath: workspace,
    permissionMode: 'full',
  });
  await cairn.open(page);
  await page.getByTestId('session-row').filter({ hasText: 'Queue with files' }).locator('.session-row-main').click();
  // The Offline demo's turn runs until the test lets it end (its command waits for a file), so the
  // follow-up is queued behind it however slow the machine is; meanwhile the next turn is moved to the test server.
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill('/tool run_shell {"command":"until [ -e go ]; do sleep 0.05; done"}');
  await composer.press('Enter');
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'running');
  await cairn.call('session.configure', {
    sessionId: session.sessionId,
    connectionId: connection.connectionId,
    model: 'gpt-4o-mini',
  });
  await expect(page.getByTestId('model-picker')).toContainText('Test server · gpt-4o-mini');

  await page
    .getByTestId('attachment-input')
    .setInputFiles({ name: 'notes.md', mimeType: 'text/markdown', buffer: Buffer.from('# Notes\nKeep going.') });
  await expect(page.getByTestId('pending-attachment')).toHaveCount(1);
  server.enqueue(textReply('Read your notes.'));
  await composer.fill('Then read my notes');
  await composer.press('Enter');
  const queued = page.getByTestId('queued-message');
  await expect(queued).toContainText('Then read my notes');
  await expect(queued.getByTestId('queued-files')).toHaveText('with notes.md');
  await expect(page.getByTestId('pending-attachment')).toHaveCount(0);

  writeFileSync(join(workspace, 'go'), '');
  await expect(queued).toHaveCount(0, { timeout: 20_000 });
  await expect(page.locator('[data-kind="assistant_message"]').last()).toHaveText('Read your notes.');
  const body = (await server.waitForModelCall(0)).body as { messages: Array<{ role: string; content: unknown }> };
  expect(body.messages.at(-1)).toEqual({
    role: 'user',
    content: [
      { type: 'text', text: 'Then read my notes' },
      { type: 'text', text: 'Attached file notes.md:\n```\n# Notes\nKeep going.\n```' },
    ],
  });
  await expect(page.getByTestId('sent-attachment').last()).toContainText('notes.md');
  rmSync(workspace, { recursive: true, force: true });
});
