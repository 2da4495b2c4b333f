import type { Page } from '@playwright/test';
import {
  hangReply,
  startOpenAIChatServer,
  textReply,
  TEST_API_KEY,
  type ProviderTestServer,
} from '../src-main/testing/provider-servers';
import { expect, test } from './fixtures';

let server: ProviderTestServer;

test.beforeEach(async () => {
  server = await startOpenAIChatServer({ models: ['gpt-test', 'gpt-big'] });
});

test.afterEach(async () => {
  await server.close();
});

/** Settings → Add connection, filled in for the test server; leaves Settings open on the new connection. */
async function addConnection(page: Page, fields: { name: string; apiKey: string }) {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByRole('button', { name: 'Add connection' }).click();
  await settings.getByRole('radio', { name: /OpenAI-compatible/ }).check();
  await settings.getByRole('textbox', { name: 'Name' }).fill(fields.name);
  await settings.getByRole('textbox', { name: 'Base URL' }).fill(server.baseUrl);
  await settings.getByRole('textbox', { name: 'API key' }).fill(fields.apiKey);
  await settings
    .getByRole('form', { name: 'Add a connection' })
    .getByRole('button', { name: 'Add connection' })
    .click();
  await expect(settings.getByTestId('connection-detail')).toContainText(fields.name);
  return settings;
}

test('a connection added in Settings chats with its model, shows tokens, and Stop closes the provider stream', async ({
  page,
  cairn,
}) => {
  await cairn.open(page);
  const settings = await addConnection(page, { name: 'Test server', apiKey: TEST_API_KEY });

  await settings.getByRole('button', { name: 'Fetch models' }).click();
  await expect(settings.getByTestId('models-status')).toContainText('of 2 enabled');
  const big = settings.getByRole('checkbox', { name: 'gpt-big' });
  await big.check();
  await expect(big).toBeChecked();
  await expect(settings.getByTestId('models-status')).toContainText('2 of 2 enabled');

  await settings.getByRole('button', { name: 'Test', exact: true }).click();
  await expect(settings.getByTestId('connection-verdict')).toHaveAttribute('data-verdict', 'ok');
  await expect(settings.getByTestId('connection-verdict')).toContainText('Works');

  await settings.getByRole('button', { name: /^Default model/ }).click();
  await settings.getByRole('option', { name: /^gpt-test,/ }).click();
  await expect(settings.getByRole('button', { name: /^Default model/ })).toBeFocused();
  await settings.getByRole('button', { name: 'Make default' }).click();
  await expect(settings.getByTestId('default-note')).toContainText('gpt-test');
  await expect(
    settings.getByTestId('connection-row').filter({ hasText: 'Test server' }).getByTestId('default-badge'),
  ).toBeVisible();
  await expect(settings.getByTestId('connection-row').filter({ hasText: 'Test server' })).toContainText('Works');
  await page.keyboard.press('Escape');
  await expect(settings).toBeHidden();

  // A new session uses the default: the test server's model.
  await page.getByRole('button', { name: 'New session', exact: true }).first().click();
  await expect(page.getByTestId('model-picker')).toContainText('Test server · gpt-test');
  server.enqueue(
    textReply('Hello from the test server, streamed in pieces.', 5, { inputTokens: 1180, outputTokens: 42 }),
  );
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill('Say hello');
  await composer.press('Enter');
  await expect(page.locator('[data-kind="assistant_message"]').last()).toHaveText(
    'Hello from the test server, streamed in pieces.',
  );
  const firstTurn = page.getByTestId('turn-status').last();
  await expect(firstTurn).toHaveAttribute('data-status', 'completed');
  // gpt-test has no known price: the cost shows as a dash, never $0.00.
  await expect(firstTurn.getByTestId('turn-usage')).toHaveText('1.2k tokens · —');
  await expect(firstTurn.getByTestId('turn-usage')).toHaveAttribute('title', /price unknown/);
  await expect(page.getByTestId('session-usage')).toHaveText('1.2k tokens · —');
  const sent = (await server.waitForModelCall(0)).body as { model: string };
  expect(sent.model).toBe('gpt-test');

  // The reply streams in, and hangs: Stop cancels the turn and closes the provider's stream.
  server.enqueue(hangReply(['Let me think ', 'about that at length…']));
  await composer.fill('Take your time');
  await composer.press('Enter');
  const partial = page.locator('[data-kind="assistant_message"]').last();
  await expect(partial).toContainText('about that at length');
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'running');
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'cancelled');
  expect(await server.modelCalls()[1]!.outcome).toBe('client_closed');

  // Switching the model for the next turn is the session's own choice.
  await page.getByRole('button', { name: /^Connection and model for the next turn/ }).click();
  await page.getByRole('option', { name: /^gpt-big, Test server/ }).click();
  await expect(page.getByTestId('model-picker')).toContainText('Test server · gpt-big');
  server.enqueue(textReply('Big answer.', 2, { inputTokens: 300, outputTokens: 20 }));
  await composer.fill('Once more');
  await composer.press('Enter');
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');
  expect(((await server.waitForModelCall(2)).body as { model: string }).model).toBe('gpt-big');
  await expect(page.getByTestId('session-usage')).toContainText('tokens');
});

test('Settings checks its fields, reports a refused key and a stale edit, and a session whose connection is removed asks for another', async ({
  page,
  cairn,
}) => {
  await cairn.open(page);
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByRole('button', { name: 'Add connection' }).click();
  await settings.getByRole('radio', { name: /OpenAI-compatible/ }).check();
  const name = settings.getByRole('textbox', { name: 'Name' });
  const baseUrl = settings.getByRole('textbox', { name: 'Base URL' });
  await name.fill('');
  await baseUrl.fill('ftp://example.com');
  await settings
    .getByRole('form', { name: 'Add a connection' })
    .getByRole('button', { name: 'Add connection' })
    .click();
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(name).toHaveAccessibleDescription(/Give the connection a name/);
  await expect(baseUrl).toHaveAccessibleDescription(/http:\/\/ or https:\/\//);
  await settings.getByRole('button', { name: 'Close settings' }).click();

  const form = await addConnection(page, { name: 'Local box', apiKey: 'wrong-key' });
  await form.getByRole('button', { name: 'Test', exact: true }).click();
  await expect(form.getByTestId('connection-verdict')).toHaveAttribute('data-verdict', 'bad_key');
  await expect(form.getByTestId('connection-verdict')).toContainText('Key refused');
  const key = form.getByRole('textbox', { name: 'API key' });
  await expect(key).toHaveAttribute('placeholder', '•••• stored');
  await expect(key).toHaveValue('');
  await key.fill(TEST_API_KEY);
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(form.getByTestId('connection-notice')).toHaveText('Saved.');
  await form.getByRole('button', { name: 'Test', exact: true }).click();
  await expect(form.getByTestId('connection-verdict')).toHaveAttribute('data-verdict', 'ok');

  // Someone else renames it while this form is being edited: the save is refused, re-read, and said.
  const { connections } = await cairn.call('connection.list', {});
  const box = connections.find((connection) => connection.name === 'Local box')!;
  await form.getByRole('textbox', { name: 'Name' }).fill('My box');
  await cairn.call('connection.update', {
    connectionId: box.connectionId,
    expectedRevision: box.revision,
    name: 'Renamed elsewhere',
  });
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(form.getByTestId('connection-notice')).toContainText('changed in another window');
  await expect(form.getByRole('textbox', { name: 'Name' })).toHaveValue('Renamed elsewhere');
  await page.keyboard.press('Escape');

  // A session on the connection; then the connection goes away.
  await cairn.call('connection.models.fetch', { connectionId: box.connectionId });
  const { session } = await cairn.call('session.create', {
    title: 'On the box',
    connectionId: box.connectionId,
    model: 'gpt-test',
  });
  await page.getByTestId('session-row').filter({ hasText: 'On the box' }).click();
  await expect(page.getByTestId('model-picker')).toContainText('Renamed elsewhere · gpt-test');
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await settings.getByTestId('connection-row').filter({ hasText: 'Renamed elsewhere' }).click();
  await settings.getByRole('button', { name: 'Remove…' }).click();
  await settings.getByRole('button', { name: 'Remove connection' }).click();
  await expect(settings.getByTestId('connection-row').filter({ hasText: 'Renamed elsewhere' })).toHaveCount(0);
  await page.keyboard.press('Escape');

  await expect(page.getByTestId('connection-missing')).toContainText('This session’s connection was removed');
  await expect(page.getByTestId('model-picker')).toContainText('Choose a connection');
  // Nothing re-binds by itself.
  expect((await cairn.call('session.get', { sessionId: session.sessionId })).session.connectionId).toBe(
    box.connectionId,
  );
  await page.getByRole('button', { name: /^Connection and model for the next turn/ }).click();
  await page.getByRole('option', { name: /^Scripted agent,/ }).click();
  await expect(page.getByTestId('connection-missing')).toBeHidden();
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill('hello again');
  await composer.press('Enter');
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');
});

test('the connection list shows the last Test — when and its verdict — after a reload and a host restart', async ({
  page,
  cairn,
}) => {
  test.setTimeout(150_000);
  await cairn.open(page);
  const settings = await addConnection(page, { name: 'Tested box', apiKey: TEST_API_KEY });
  const row = settings.getByTestId('connection-row').filter({ hasText: 'Tested box' });
  await expect(row).toContainText('Not tested');
  await settings.getByRole('button', { name: 'Test', exact: true }).click();
  await expect(settings.getByTestId('connection-verdict')).toHaveAttribute('data-verdict', 'ok');
  await expect(row.getByTestId('connection-status')).toHaveText('Tested just now · Works');

  await page.reload();
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await expect(row.getByTestId('connection-status')).toHaveText('Tested just now · Works');

  // A failing Test replaces it, with what the provider said on hover, and a restarted host still has it.
  const { connections } = await cairn.call('connection.list', {});
  const box = connections.find((connection) => connection.name === 'Tested box')!;
  await cairn.call('connection.update', {
    connectionId: box.connectionId,
    expectedRevision: box.revision,
    apiKey: 'wrong-key',
  });
  await row.click();
  await settings.getByRole('button', { name: 'Test', exact: true }).click();
  await expect(row.getByTestId('connection-status')).toHaveText('Tested just now · Key refused');
  await page.keyboard.press('Escape');
  await cairn.stop();
  await cairn.start();
  await page.reload();
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await expect(row.getByTestId('connection-status')).toHaveAttribute('data-verdict', 'bad_key');
  await expect(row.getByTestId('connection-status')).toHaveAttribute('title', /API key was not accepted/);
  await row.click();
  await expect(settings.getByTestId('connection-verdict')).toContainText('Key refused');
});
