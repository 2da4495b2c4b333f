import type { Page } from '@playwright/test';
import {
  startOllamaServer,
  startOpenAIChatServer,
  TEST_API_KEY,
  textReply,
  type ProviderTestServer,
} from '../src-main/testing/provider-servers';
import { expect, test, type CairnHost } from './fixtures';

/** 40 models: a few Cairn knows (window and price), the rest unknown to it. */
const MODELS = [
  'gpt-4o',
  'gpt-4o-mini',
  'gpt-4.1',
  'o3',
  ...Array.from({ length: 36 }, (_, index) => `house-model-${String(index + 1).padStart(2, '0')}`),
];

let server: ProviderTestServer;

test.beforeEach(async () => {
  server = await startOpenAIChatServer({ models: MODELS });
});

test.afterEach(async () => {
  await server.close();
});

async function openSessionOnServer(page: Page, cairn: CairnHost): Promise<string> {
  const { connection } = await cairn.call('connection.create', {
    name: 'Work server',
    providerType: 'openai_compatible',
    baseUrl: server.baseUrl,
    apiKey: TEST_API_KEY,
    enabledModelIds: MODELS,
  });
  await cairn.call('connection.models.fetch', { connectionId: connection.connectionId });
  const { session } = await cairn.call('session.create', {
    title: 'Picking models',
    connectionId: connection.connectionId,
    model: 'gpt-4o',
  });
  await cairn.open(page);
  await page.getByTestId('session-row').filter({ hasText: 'Picking models' }).getByRole('button').first().click();
  await expect(page.getByTestId('model-picker')).toContainText('Work server · gpt-4o');
  return session.sessionId;
}

const trigger = (page: Page) => page.getByRole('button', { name: /^Connection and model for the next turn/ });

test('typing filters the model list; arrows and Enter choose; Escape closes; focus returns to the picker', async ({
  page,
  cairn,
}) => {
  const sessionId = await openSessionOnServer(page, cairn);
  await trigger(page).focus();
  await page.keyboard.press('ArrowDown');
  const search = page.getByRole('combobox', { name: /Search connection and model/ });
  await expect(search).toBeFocused();
  const options = page.getByRole('listbox', { name: 'Connection and model for the next turn' }).getByRole('option');
  // The Offline demo and the 40 models of the server.
  await expect(options).toHaveCount(41);
  // Each entry names its connection, window and price (or says it does not know them).
  const current = page.getByRole('option', { name: /^gpt-4o, Work server/ });
  await expect(current).toHaveAttribute('aria-selected', 'true');
  await expect(current).toContainText('128k');
  await expect(current).toContainText('$2.50 / $10.00 per M tokens');
  const unknown = page.getByRole('option', { name: /^house-model-07,/ });
  await expect(unknown).toContainText('default 32k');
  await expect(unknown).toContainText('price unknown');

  await page.keyboard.type('4o mini');
  await expect(options).toHaveCount(1);
  await expect(options.first()).toContainText('$0.15 / $0.60 per M tokens');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('model-combobox-popup')).toHaveCount(0);
  await expect(trigger(page)).toBeFocused();
  await expect(page.getByTestId('model-picker')).toContainText('Work server · gpt-4o-mini');
  await expect.poll(async () => (await cairn.call('session.get', { sessionId })).session.model).toBe('gpt-4o-mini');

  // Typing on the closed picker starts a search; arrows move through what matches.
  await page.keyboard.type('house');
  await expect(search).toHaveValue('house');
  await expect(options).toHaveCount(36);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(search).toHaveAttribute('aria-activedescendant', (await options.nth(2).getAttribute('id')) ?? 'missing');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('model-picker')).toContainText('Work server · house-model-03');

  // Escape closes without choosing.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.type('zzz');
  await expect(page.getByText('No model matches “zzz”.')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('model-combobox-popup')).toHaveCount(0);
  await expect(trigger(page)).toBeFocused();
  await expect(page.getByTestId('model-picker')).toContainText('Work server · house-model-03');
  expect((await cairn.call('session.get', { sessionId })).session.model).toBe('house-model-03');
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`a long model list stays inside the window and scrolls (${colorScheme})`, async ({ page, cairn }) => {
    await page.setViewportSize({ width: 1100, height: 700 });
    await page.emulateMedia({ colorScheme });
    await openSessionOnServer(page, cairn);
    await trigger(page).click();
    const popup = page.getByTestId('model-combobox-popup');
    const list = popup.getByRole('listbox');
    await expect(list.getByRole('option')).toHaveCount(41);
    const box = await popup.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(1100);
    expect(box!.y + box!.height).toBeLessThanOrEqual(700);
    const { scrollHeight, clientHeight } = await list.evaluate((element) => ({
      scrollHeight: element.scrollHeight,
      clientHeight: element.clientHeight,
    }));
    expect(scrollHeight).toBeGreaterThan(clientHeight);
    // The last entry can be reached: from the first, ArrowUp wraps to it and scrolls it into view.
    await expect(list.getByRole('option', { selected: true })).toContainText('gpt-4o');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await expect(list.getByRole('option').last()).toBeInViewport();
    if (process.env.CAIRN_SCREENSHOTS !== undefined)
      await page.screenshot({ path: `${process.env.CAIRN_SCREENSHOTS}/model-picker-${colorScheme}.png` });
  });
}

test('an Ollama model’s reported context length reaches the picker and the context meter', async ({ page, cairn }) => {
  const ollama = await startOllamaServer({
    models: [{ id: 'my-tune:7b', label: 'my-tune:7b', contextLength: 65_536 }, 'plain:1b'],
  });
  try {
    const { connection } = await cairn.call('connection.create', {
      name: 'Local Ollama',
      providerType: 'ollama',
      baseUrl: ollama.baseUrl,
      enabledModelIds: ['my-tune:7b', 'plain:1b'],
    });
    await cairn.call('connection.models.fetch', { connectionId: connection.connectionId });
    await cairn.call('session.create', {
      title: 'On Ollama',
      connectionId: connection.connectionId,
      model: 'my-tune:7b',
    });
    await cairn.open(page);
    await page.getByTestId('session-row').filter({ hasText: 'On Ollama' }).getByRole('button').first().click();
    await trigger(page).click();
    await expect(page.getByRole('option', { name: /^my-tune:7b,/ })).toContainText('66k');
    await expect(page.getByRole('option', { name: /^my-tune:7b,/ })).toContainText('free');
    await expect(page.getByRole('option', { name: /^plain:1b,/ })).toContainText('default 32k');
    await page.keyboard.press('Escape');

    ollama.enqueue(textReply('Hello from a local model.'));
    const composer = page.getByRole('textbox', { name: 'Message' });
    await composer.fill('Hello');
    await composer.press('Enter');
    await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');
    await expect(page.getByTestId('context-meter')).toContainText('/ 65.5k');
  } finally {
    await ollama.close();
  }
});
