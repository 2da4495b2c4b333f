import type { Page } from '@playwright/test';
import {
  continuingModel,
  hangReply,
  openAIErrors,
  startOpenAIChatServer,
  streamReply,
  TEST_API_KEY,
  textReply,
  type ProviderTestServer,
} from '../src-main/testing/provider-servers';
import { expect, test, type CairnHost } from './fixtures';

let server: ProviderTestServer;

test.beforeEach(async () => {
  server = await startOpenAIChatServer({ models: ['gpt-test'] });
});

test.afterEach(async () => {
  await server.close();
});

/** A connection to the test server as the default, and a new session on it, open. */
async function sessionOnServer(page: Page, cairn: CairnHost) {
  const { connection } = await cairn.call('connection.create', {
    name: 'Test server',
    providerType: 'openai_compatible',
    baseUrl: server.baseUrl,
    apiKey: TEST_API_KEY,
  });
  await cairn.call('connection.models.fetch', { connectionId: connection.connectionId });
  await cairn.call('connection.setDefault', { connectionId: connection.connectionId, modelId: 'gpt-test' });
  await cairn.open(page);
  await page.getByRole('button', { name: 'New session', exact: true }).first().click();
  await expect(page.getByTestId('model-picker')).toContainText('Test server · gpt-test');
  return connection.connectionId;
}

async function send(page: Page, text: string) {
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill(text);
  await composer.press('Enter');
}

test('a hung provider shows a live timer, then fails with a clear message and Retry', async ({ page, cairn }) => {
  await sessionOnServer(page, cairn);
  // The connection's first-token timeout, set in Settings: 8 seconds.
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByTestId('connection-row').filter({ hasText: 'Test server' }).click();
  const firstToken = settings.getByRole('spinbutton', { name: 'First answer within (seconds)' });
  await expect(firstToken).toHaveValue('120');
  await expect(settings.getByRole('spinbutton', { name: 'Silence mid-answer up to (seconds)' })).toHaveValue('60');
  await firstToken.fill('0');
  await settings.getByRole('button', { name: 'Save changes' }).click();
  await expect(firstToken).toHaveAccessibleDescription(/whole seconds from 1 to 3600/);
  await firstToken.fill('8');
  await settings.getByRole('button', { name: 'Save changes' }).click();
  await expect(settings.getByTestId('connection-notice')).toHaveText('Saved.');
  await page.keyboard.press('Escape');

  // The server takes the request and never answers.
  server.enqueue(hangReply());
  await send(page, 'Are you there?');
  const wait = page.getByTestId('provider-wait');
  await expect(wait).toHaveText(/^Waiting for the provider — \d s$/);
  // The timer is live: it counts on by itself.
  const shown = await wait.textContent();
  await expect(wait).not.toHaveText(shown ?? '');
  await expect(wait).toHaveText(/^Waiting for the provider — [1-7] s$/);
  // A reload meanwhile still shows what the turn waits on, counted from when the request went out.
  await page.reload();
  await expect(wait).toHaveText(/^Waiting for the provider — [1-7] s$/);
  const status = page.getByTestId('turn-status').last();
  await expect(status).toHaveAttribute('data-status', 'failed');
  await expect(wait).toBeHidden();
  await expect(status).toContainText('The provider took too long');
  await expect(status).toContainText('sent nothing for 8 s');
  await expect(server.modelCalls()[0]!.outcome).resolves.toBe('client_closed');

  server.enqueue(textReply('Here at last.'));
  await status.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');
  await expect(page.locator('[data-kind="assistant_message"]').last()).toHaveText('Here at last.');
});

test('a rate-limited request says which attempt comes next, why, and when', async ({ page, cairn }) => {
  await sessionOnServer(page, cairn);
  // Eight seconds to wait: long enough that a loaded machine still shows the wait before it ends.
  server.enqueue(openAIErrors.rateLimited(8), textReply('Worth the wait.'));
  await send(page, 'Busy?');
  await expect(page.getByTestId('provider-wait')).toHaveText(
    /^Retrying \(attempt 2 of 4\) after a rate limit — resumes in [1-8] s$/,
  );
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');
  await expect(page.locator('[data-kind="assistant_message"]').last()).toHaveText('Worth the wait.');
});

test('a connection dropped mid-answer offers Retry under the partial answer, and Retry finishes it as one answer', async ({
  page,
  cairn,
}) => {
  await sessionOnServer(page, cairn);
  const answer = 'The first half of the answer, and then the second half.';
  server.enqueue(streamReply({ text: ['The first half ', 'of the answer, '], ending: 'drop' }));
  await send(page, 'Explain');
  const status = page.getByTestId('turn-status').last();
  await expect(status).toHaveAttribute('data-status', 'failed');
  await expect(status).toContainText('The connection to the provider failed');
  await expect(page.locator('[data-kind="assistant_message"]').last()).toHaveText('The first half of the answer,');
  server.enqueue(continuingModel(answer, { honoursPrefill: false }));
  await status.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');
  await expect(page.locator('[data-kind="assistant_message"]')).toHaveCount(1);
  await expect(page.locator('[data-kind="assistant_message"]')).toHaveText(answer);
});

test('Resume after Stop continues the partial answer and shows it once', async ({ page, cairn }) => {
  await sessionOnServer(page, cairn);
  const answer = 'Roses are red, violets are blue, sugar is sweet.';
  server.enqueue(hangReply(['Roses are red, ', 'violets ']));
  await send(page, 'Write a poem');
  await expect(page.locator('[data-kind="assistant_message"]').last()).toContainText('violets');
  await page.getByRole('button', { name: 'Stop' }).click();
  const status = page.getByTestId('turn-status').last();
  await expect(status).toHaveAttribute('data-status', 'cancelled');

  server.enqueue(continuingModel(answer, { honoursPrefill: false }));
  await status.getByRole('button', { name: 'Resume' }).click();
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');
  const sent = (await server.waitForModelCall(1)).body as { messages: Array<{ role: string; content: unknown }> };
  expect(JSON.stringify(sent.messages.at(-2))).toContain('Roses are red, violets ');
  await expect(page.locator('[data-kind="assistant_message"]')).toHaveText([answer]);
  await expect(page.getByText('Roses are red')).toHaveCount(1);
});
