import { readFile } from 'node:fs/promises';
import { startOpenAIChatServer, textReply, TEST_API_KEY } from '../src-main/testing/provider-servers';
import { expect, test } from './fixtures';
import { seedLongSession } from './seed';

/** Issue 19: find what was said, export a session, instructions in the request. */

test('searching a word from a message body lands on that message, far back in a long session', async ({
  page,
  cairn,
}) => {
  const { session } = await cairn.call('session.create', { title: 'Orchard notes' });
  const sessionId = session.sessionId;
  await cairn.call('turn.message.submit', {
    sessionId,
    messageId: 'm0',
    text: '/stream 1 0 the pomegranate tree needs water',
    placement: 'next_turn',
  });
  for (let index = 1; index <= 80; index += 1) {
    await cairn.call('turn.message.submit', {
      sessionId,
      messageId: `m${index}`,
      text: `/stream 1 0 filler message ${index}`,
      placement: 'next_turn',
    });
  }
  await expect
    .poll(async () => (await cairn.call('turn.query', { sessionId, turnId: 'm80' }).catch(() => null))?.turn.status)
    .toBe('completed');
  await cairn.call('session.create', { title: 'Something else' });

  await cairn.open(page);
  await page.getByRole('searchbox', { name: 'Search sessions' }).fill('pomegranate');
  const hit = page.getByTestId('message-hit').filter({ hasText: 'You ·' });
  await expect(hit).toHaveCount(1);
  await expect(hit.locator('mark')).toHaveText('pomegranate');
  await expect(hit).toContainText('Orchard notes');
  await hit.click();

  await expect(page.getByTestId('session-title')).toHaveText('Orchard notes');
  const landed = page.locator('[data-search-hit] [data-kind="user_message"]');
  await expect(landed).toContainText('pomegranate tree needs water');
  await expect(landed).toBeInViewport();
});

test('a hit further back than a few pages opens a window around it; scrolling down reads newer messages, and Scroll to the newest goes back', async ({
  page,
  cairn,
}) => {
  // 520 messages: the first is more than 400 before the newest page, so it opens in a window.
  await seedLongSession(cairn, 260);
  await cairn.open(page);
  await page.getByRole('searchbox', { name: 'Search sessions' }).fill('seed message 3');
  const hit = page.getByTestId('message-hit').filter({ hasText: 'seed message 3' }).filter({ hasText: 'You ·' });
  await hit.first().click();
  const landed = page.locator('[data-search-hit] [data-kind="user_message"]');
  await expect(landed).toContainText('seed message 3');
  await expect(landed).toBeInViewport();
  const transcript = page.getByTestId('transcript');
  const newest = transcript.locator('[data-kind="user_message"]', { hasText: 'seed message 260' });
  await expect(newest).toHaveCount(0);

  // Scrolling to the window's end reads the next newer page.
  const next = page.getByText('/stream 1 0 seed message 23', { exact: true });
  await expect(next).toHaveCount(0);
  await transcript.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
  await expect(next).toHaveCount(1);
  await expect(newest).toHaveCount(0);

  await page.getByRole('button', { name: 'Scroll to the newest message' }).click();
  await expect(newest).toBeInViewport();
  await expect(page.getByRole('button', { name: 'Scroll to the newest message' })).toHaveCount(0);
});

test('a session exported as Markdown and as JSON downloads a file that holds the conversation', async ({
  page,
  cairn,
}) => {
  const { session } = await cairn.call('session.create', { title: 'Export me' });
  await cairn.call('turn.start', {
    sessionId: session.sessionId,
    turnId: 't1',
    text: 'Plant the lavender by the gate',
  });
  await expect
    .poll(async () => (await cairn.call('turn.query', { sessionId: session.sessionId, turnId: 't1' })).turn.status)
    .toBe('completed');
  await cairn.open(page);
  await page.getByTestId('session-row').filter({ hasText: 'Export me' }).getByRole('button').first().click();
  await expect(page.getByTestId('session-title')).toHaveText('Export me');

  const menu = page.getByRole('button', { name: 'Conversation menu' });
  await menu.click();
  const [markdownDownload] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('menuitem', { name: 'Export as Markdown' }).click(),
  ]);
  expect(markdownDownload.suggestedFilename()).toMatch(/^export-me-\d{4}-\d{2}-\d{2}\.md$/);
  const markdown = await readFile(await markdownDownload.path(), 'utf8');
  expect(markdown).toContain('# Export me');
  expect(markdown).toContain('## You\n\nPlant the lavender by the gate');
  expect(markdown).toContain('## Agent');

  await menu.click();
  const [jsonDownload] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('menuitem', { name: 'Export as JSON' }).click(),
  ]);
  const record = JSON.parse(await readFile(await jsonDownload.path(), 'utf8')) as {
    format: string;
    session: { title: string };
    transcript: Array<{ kind: string; text: string }>;
  };
  expect(record.format).toBe('cairn.session');
  expect(record.session.title).toBe('Export me');
  expect(record.transcript[0]).toMatchObject({ kind: 'user_message', text: 'Plant the lavender by the gate' });
});

test('instructions set in Settings and in the session reach the request the provider receives', async ({
  page,
  cairn,
}) => {
  const server = await startOpenAIChatServer({ models: ['gpt-test'] });
  try {
    const { connection } = await cairn.call('connection.create', {
      name: 'Test server',
      providerType: 'openai_compatible',
      baseUrl: server.baseUrl,
      apiKey: TEST_API_KEY,
    });
    await cairn.call('session.create', {
      title: 'Instructed',
      connectionId: connection.connectionId,
      model: 'gpt-test',
    });
    await cairn.open(page);

    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    await settings.getByRole('tab', { name: 'Instructions' }).click();
    await settings.getByRole('textbox', { name: 'Custom instructions' }).fill('Always answer in haiku.');
    await settings.getByRole('button', { name: 'Save instructions' }).click();
    await expect(settings.getByRole('status')).toContainText('Saved');
    await page.keyboard.press('Escape');

    await page.getByTestId('session-row').filter({ hasText: 'Instructed' }).getByRole('button').first().click();
    await expect(page.getByTestId('instructions-chip')).toBeVisible();
    await page.getByRole('button', { name: 'Conversation menu' }).click();
    await page.getByRole('menuitem', { name: 'Instructions…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Instructions for this session' });
    await dialog.getByRole('textbox', { name: 'Instructions' }).fill('Mention the garden.');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('instructions-chip')).toHaveAttribute('title', /Mention the garden/);

    server.enqueue(textReply('Leaves fall softly.'));
    const composer = page.getByRole('textbox', { name: 'Message' });
    await composer.fill('Hello');
    await composer.press('Enter');
    await expect(page.locator('[data-kind="assistant_message"]').last()).toHaveText('Leaves fall softly.');
    const body = (await server.waitForModelCall(0)).body as { messages: Array<{ role: string; content: string }> };
    const system = body.messages.find((message) => message.role === 'system')?.content ?? '';
    expect(system).toContain('Always answer in haiku.');
    expect(system).toContain('Mention the garden.');
  } finally {
    await server.close();
  }
});

test('a connection’s model settings set in Settings reach the provider request', async ({ page, cairn }) => {
  const server = await startOpenAIChatServer({ models: ['gpt-test'] });
  try {
    const { connection } = await cairn.call('connection.create', {
      name: 'Tuned server',
      providerType: 'openai_compatible',
      baseUrl: server.baseUrl,
      apiKey: TEST_API_KEY,
    });
    await cairn.call('session.create', { title: 'Tuned', connectionId: connection.connectionId, model: 'gpt-test' });
    await cairn.open(page);
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    await settings.getByTestId('connection-row').filter({ hasText: 'Tuned server' }).click();
    const section = settings.getByRole('region', { name: 'Model settings' });
    await section.getByRole('textbox', { name: 'Temperature' }).fill('0.3');
    await section.getByRole('textbox', { name: 'Max output tokens' }).fill('777');
    await section.getByRole('button', { name: 'Save model settings' }).click();
    await expect(section.getByRole('status')).toContainText('Saved');
    await page.keyboard.press('Escape');

    await page.getByTestId('session-row').filter({ hasText: 'Tuned' }).getByRole('button').first().click();
    server.enqueue(textReply('Tuned reply.'));
    const composer = page.getByRole('textbox', { name: 'Message' });
    await composer.fill('Hello');
    await composer.press('Enter');
    await expect(page.locator('[data-kind="assistant_message"]').last()).toHaveText('Tuned reply.');
    const body = (await server.waitForModelCall(0)).body as { temperature?: number; max_tokens?: number };
    expect(body.temperature).toBe(0.3);
    expect(body.max_tokens).toBe(777);
  } finally {
    await server.close();
  }
});

test('code highlighting loads once the person first acts, before any code block asks for it, so the first streamed code block does not wait for it', async ({
  page,
  cairn,
}) => {
  await cairn.open(page);
  await page.getByRole('button', { name: 'New session', exact: true }).first().click();
  const composer = page.getByRole('textbox', { name: 'Message' });
  // A reply without any code: nothing has asked for highlighting yet.
  await composer.fill('/stream 2 1');
  await composer.press('Enter');
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');
  const highlightingLoaded = () =>
    page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .some((entry) => /\/assets\/highlight-plugin-[^/]*\.js$/.test(entry.name)),
    );
  await expect.poll(highlightingLoaded, { timeout: 30_000 }).toBe(true);

  // The first code block an answer streams is highlighted.
  await composer.fill('/stream 40 1 markdown');
  await composer.press('Enter');
  await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');
  await expect(page.getByTestId('transcript').locator('code.hljs').first()).toBeVisible();
});
