import type { Page } from '@playwright/test';
import { startOpenAIChatServer, TEST_API_KEY, textReply, type ProviderTestServer } from '../src-main/testing/provider-servers';
import { expect, test, type CairnHost } from './fixtures';

let server: ProviderTestServer;

test.beforeEach(async () => {
  server = await startOpenAIChatServer({ models: ['gpt-4o-mini'] });
});

test.afterEach(async () => {
  await server.close();
});

async function sessionOnServer(page: Page, cairn: CairnHost) {
  const { connection } = await cairn.call('connection.create', { name: 'Test server', providerType: 'openai_compatible', baseUrl: server.baseUrl, apiKey: TEST_API_KEY });
  await cairn.call('connection.models.fetch', { connectionId: connection.connectionId });
  await cairn.call('connection.setDefault', { connectionId: connection.connectionId, modelId: 'gpt-4o-mini' });
  await cairn.open(page);
  await page.getByRole('button', { name: 'New session', exact: true }).first().click();
  await expect(page.getByTestId('model-picker')).toContainText('Test server · gpt-4o-mini');
}

async function send(page: Page, text: string) {
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill(text);
  await composer.press('Enter');
}

const usedOf = async (page: Page) => Number(await page.getByTestId('context-meter').getAttribute('data-used'));

test('the header’s context meter appears with the first request and moves as the session grows', async ({ page, cairn }) => {
  await sessionOnServer(page, cairn);
  await expect(page.getByTestId('context-meter')).toHaveCount(0);

  server.enqueue(textReply('A short first answer.'));
  await send(page, 'Hello');
  const meter = page.getByTestId('context-meter');
  await expect(meter).toContainText('/ 128k');
  await expect(meter).toHaveAttribute('title', /System prompt and tools .* messages .*\nWindow: known for gpt-4o-mini\./s);
  expect(await usedOf(page)).toBeGreaterThan(0);

  server.enqueue(textReply(`A much longer answer. ${'Every sentence adds to what the next request carries. '.repeat(60)}`));
  await send(page, 'Tell me more');
  await expect(page.getByTestId('message').filter({ hasText: 'A much longer answer.' })).toBeVisible();
  const second = await usedOf(page);
  server.enqueue(textReply('Done.'));
  await send(page, 'And now?');
  await expect(page.getByTestId('message').filter({ hasText: 'Done.' })).toBeVisible();
  // The next request carries the long answer: a few hundred tokens more.
  await expect.poll(() => usedOf(page)).toBeGreaterThan(second + 200);

  // It survives a reload: read back from the host.
  await page.reload();
  await expect(page.getByTestId('context-meter')).toContainText('/ 128k');
});
