import type { Page } from '@playwright/test';
import {
  startOpenAIChatServer,
  TEST_API_KEY,
  textReply,
  type ProviderTestServer,
} from '../src-main/testing/provider-servers';
import { expect, test, type CairnHost } from './fixtures';

let server: ProviderTestServer;

test.beforeEach(async () => {
  server = await startOpenAIChatServer({ models: ['gpt-4o-mini'] });
});

test.afterEach(async () => {
  await server.close();
});

async function sessionOnServer(page: Page, cairn: CairnHost) {
  const { connection } = await cairn.call('connection.create', {
    name: 'Test server',
    providerType: 'openai_compatible',
    baseUrl: server.baseUrl,
    apiKey: TEST_API_KEY,
  });
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

test('the header’s context meter appears with the first request and moves as the session grows', async ({
  page,
  cairn,
}) => {
  await sessionOnServer(page, cairn);
  await expect(page.getByTestId('context-meter')).toHaveCount(0);

  server.enqueue(textReply('A short first answer.'));
  await send(page, 'Hello');
  const meter = page.getByTestId('context-meter');
  await expect(meter).toContainText('/ 128k');
  await expect(meter).toHaveAttribute(
    'title',
    /System prompt and tools .* messages .*\nWindow: known for gpt-4o-mini\./s,
  );
  expect(await usedOf(page)).toBeGreaterThan(0);

  server.enqueue(
    textReply(`A much longer answer. ${'Every sentence adds to what the next request carries. '.repeat(60)}`),
  );
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

test('a model’s context window is set in Settings, and the meter follows it', async ({ page, cairn }) => {
  await sessionOnServer(page, cairn);
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByTestId('connection-row').filter({ hasText: 'Test server' }).click();
  const section = settings.getByTestId('context-window-section');
  await expect(section.getByTestId('context-window-note')).toContainText(
    '128k tokens, 16.4k kept for the answer (known for this model)',
  );
  await section.getByRole('spinbutton', { name: 'Window (tokens)' }).fill('8000');
  await section.getByRole('spinbutton', { name: 'Kept for the answer' }).fill('1000');
  await section.getByRole('button', { name: 'Save window' }).click();
  await expect(section.getByRole('status')).toHaveText('Saved.');
  await expect(section.getByTestId('context-window-note')).toContainText(
    '8k tokens, 1k kept for the answer (set here)',
  );
  await page.keyboard.press('Escape');

  server.enqueue(textReply('Fine.'));
  await send(page, 'Hello');
  await expect(page.getByTestId('context-meter')).toContainText('/ 8k');
  await expect(page.getByTestId('context-meter')).toHaveAttribute('title', /Window: set in Settings\./);
});
