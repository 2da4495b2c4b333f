import type { Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  startOpenAIChatServer,
  TEST_API_KEY,
  textReply,
  type ProviderTestServer,
} from '../src-main/testing/provider-servers';
import { expect, test } from './fixtures';

const composer = (page: Page) => page.getByRole('textbox', { name: 'Message' });
const messages = (page: Page, kind: string) => page.locator(`[data-testid="message"][data-kind="${kind}"]`);

async function send(page: Page, text: string) {
  await composer(page).fill(text);
  await composer(page).press('Enter');
}

/** The session's last turn has ended: an answer can show before its turn completes, and Compact now waits for that. */
async function lastTurnCompleted(page: Page) {
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');
}

async function compactNow(page: Page) {
  await page.getByRole('button', { name: 'Conversation menu' }).click();
  await page.getByRole('menuitem', { name: 'Compact now' }).click();
}

test('Compact now shows the summary card: the summary opens, the range reads, the messages stay', async ({
  page,
  cairn,
}) => {
  await cairn.call('session.create', { title: 'Garden' });
  await cairn.open(page);
  await page.getByTestId('session-row').filter({ hasText: 'Garden' }).click();
  for (const text of ['Plan the garden', 'Add tomatoes', 'And basil']) {
    await send(page, text);
    await expect(messages(page, 'assistant_message').last()).toContainText(`You said: “${text}”`);
    await lastTurnCompleted(page);
  }

  await compactNow(page);
  const card = page.getByTestId('compaction-card');
  await expect(card).toContainText('Earlier conversation summarised');
  await expect(card.getByTestId('compaction-range')).toHaveText('turns 1–3');
  await expect(card.getByTestId('compaction-summary')).toBeHidden();
  await card.getByRole('button', { name: 'Show summary' }).click();
  await expect(card.getByTestId('compaction-summary')).toBeVisible();
  await expect(card.getByTestId('compaction-summary')).toContainText('“Plan the garden”; “Add tomatoes”; “And basil”');
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');
  // The transcript is unchanged above the card.
  await expect(messages(page, 'user_message')).toHaveText(['Plan the garden', 'Add tomatoes', 'And basil']);

  const artifacts = join(process.cwd(), 'e2e-artifacts');
  mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: join(artifacts, 'compaction-card.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: join(artifacts, 'compaction-card-dark.png') });

  // Nothing new since: a second Compact now says so.
  await page.emulateMedia({ colorScheme: 'light' });
  await compactNow(page);
  await expect(page.getByText('There is nothing new to summarise in this session yet.')).toBeVisible();
});

test.describe('with a model', () => {
  let server: ProviderTestServer;
  test.beforeEach(async () => {
    server = await startOpenAIChatServer({ models: ['gpt-4o-mini'] });
  });
  test.afterEach(async () => {
    await server.close();
  });

  test('after Compact now the meter counts a summary and drops', async ({ page, cairn }) => {
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

    server.enqueue(textReply(`A long answer. ${'Every sentence adds to what the next request carries. '.repeat(80)}`));
    await send(page, 'Tell me about rivers');
    await expect(messages(page, 'assistant_message').last()).toContainText('A long answer.');
    await lastTurnCompleted(page);
    server.enqueue(textReply('Short.'));
    await send(page, 'And lakes?');
    await expect(messages(page, 'assistant_message').last()).toContainText('Short.');
    await lastTurnCompleted(page);
    const meter = page.getByTestId('context-meter');
    await expect(meter).toHaveAttribute('title', /summary 0 /);
    const before = Number(await meter.getAttribute('data-used'));

    server.enqueue(textReply('**What was asked**: rivers and lakes.'));
    await compactNow(page);
    await expect(page.getByTestId('compaction-card')).toContainText('turns 1–2');
    await expect(meter).toHaveAttribute('title', /Older turns are sent as a summary/);
    await expect.poll(async () => Number(await meter.getAttribute('data-used'))).toBeLessThan(before - 500);

    // The threshold is a setting (for every connection), next to the context window.
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    await settings.getByTestId('connection-row').filter({ hasText: 'Test server' }).click();
    const threshold = settings.getByRole('spinbutton', { name: /Summarise older turns at/ });
    await expect(threshold).toHaveValue('80');
    await threshold.fill('60');
    await settings.getByRole('button', { name: 'Save threshold' }).click();
    await expect(settings.getByText('Saved.')).toBeVisible();
    expect((await cairn.call('context.compaction.get', {})).threshold).toBe(0.6);
    await page.screenshot({ path: join(process.cwd(), 'e2e-artifacts', 'compaction-threshold.png') });
  });
});
