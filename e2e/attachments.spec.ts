import type { Page } from '@playwright/test';
import {
  startOpenAIChatServer,
  TEST_API_KEY,
  textReply,
  type ProviderTestServer,
} from '../src-main/testing/provider-servers';
import { expect, test } from './fixtures';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

let server: ProviderTestServer;
test.beforeEach(async () => {
  server = await startOpenAIChatServer({ models: ['gpt-4o-mini'] });
});
test.afterEach(async () => {
  await server.close();
});

/** Drops files on the composer the way a file manager does. */
async function dropFiles(page: Page, files: ReadonlyArray<{ name: string; type: string; base64: string }>) {
  const transfer = await page.evaluateHandle((list) => {
    const data = new DataTransfer();
    for (const file of list) {
      const bytes = Uint8Array.from(atob(file.base64), (char) => char.charCodeAt(0));
      data.items.add(new File([bytes], file.name, { type: file.type }));
    }
    return data;
  }, files);
  await page.locator('form.composer').dispatchEvent('drop', { dataTransfer: transfer });
}

test('a text file and an image reach the model: the provider receives both, and the transcript shows them after a reload', async ({
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
    title: 'Looking at files',
    connectionId: connection.connectionId,
    model: 'gpt-4o-mini',
  });
  await cairn.open(page);
  await page.getByTestId('session-row').filter({ hasText: 'Looking at files' }).locator('.session-row-main').click();

  await page
    .getByTestId('attachment-input')
    .setInputFiles({ name: 'notes.md', mimeType: 'text/markdown', buffer: Buffer.from('# Plan\nShip it.') });
  await dropFiles(page, [{ name: 'screen.png', type: 'image/png', base64: PNG.toString('base64') }]);
  await expect(page.getByTestId('pending-attachment')).toHaveCount(2);
  await expect(page.getByTestId('pending-attachment').nth(1)).toContainText('screen.png (image, 16 bytes)');

  server.enqueue(textReply('I see a plan and a picture.'));
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill('What are these?');
  await composer.press('Enter');
  await expect(page.locator('[data-kind="assistant_message"]').last()).toHaveText('I see a plan and a picture.');
  await expect(page.getByTestId('pending-attachment')).toHaveCount(0);
  const body = (await server.waitForModelCall(0)).body as { messages: Array<{ role: string; content: unknown }> };
  expect(body.messages.at(-1)).toEqual({
    role: 'user',
    content: [
      { type: 'text', text: 'What are these?' },
      { type: 'text', text: 'Attached file notes.md:\n```\n# Plan\nShip it.\n```' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG.toString('base64')}` } },
    ],
  });

  await page.reload();
  await page.getByTestId('session-row').filter({ hasText: 'Looking at files' }).locator('.session-row-main').click();
  await expect(page.getByTestId('sent-attachment')).toHaveText([
    /notes\.md \(text, 15 bytes\)/,
    /screen\.png \(image, 16 bytes\)/,
  ]);
});

test('the Offline demo takes text files but refuses an image with a message that says why', async ({ page, cairn }) => {
  await cairn.call('session.create', { title: 'Demo' });
  await cairn.open(page);
  await page.getByTestId('session-row').first().locator('.session-row-main').click();
  await dropFiles(page, [{ name: 'photo.png', type: 'image/png', base64: PNG.toString('base64') }]);
  await expect(page.getByTestId('composer-notice')).toContainText(
    '“photo.png” cannot be attached: The Offline demo cannot look at images',
  );
  await expect(page.getByTestId('pending-attachment')).toHaveCount(0);
  await page
    .getByTestId('attachment-input')
    .setInputFiles({ name: 'todo.txt', mimeType: 'text/plain', buffer: Buffer.from('buy milk') });
  await expect(page.getByTestId('pending-attachment')).toHaveCount(1);
});
