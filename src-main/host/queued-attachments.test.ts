import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestHost, tempDataDir, type TestHost } from '../testing/host-fixture';
import {
  hangReply,
  startOpenAIChatServer,
  TEST_API_KEY,
  textReply,
  type ProviderTestServer,
} from '../testing/provider-servers';

const base64 = (value: string) => Buffer.from(value).toString('base64');

let t: TestHost;
let server: ProviderTestServer;
let temp: { dir: string; cleanup: () => void };
let sessionId: string;

beforeEach(async () => {
  server = await startOpenAIChatServer({ models: ['gpt-4o-mini'] });
  temp = tempDataDir();
  t = await startTestHost({ dataDir: temp.dir });
  const { connection } = await t.call('connection.create', {
    name: 'Local server',
    providerType: 'openai_compatible',
    baseUrl: server.baseUrl,
    apiKey: TEST_API_KEY,
  });
  sessionId = (await t.call('session.create', { connectionId: connection.connectionId, model: 'gpt-4o-mini' })).session
    .sessionId;
});
afterEach(async () => {
  await t.close();
  await server.close();
  temp.cleanup();
});

type Body = { messages: Array<{ role: string; content: unknown }> };

describe('files on a queued follow-up', () => {
  it('are recorded on the queued message (a replay answers the same, other files conflict), and go at once when the session is free', async () => {
    server.enqueue(hangReply(['Working on it…']));
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Start something long' });
    await server.waitForModelCall(0);
    await t.call('attachment.add', {
      sessionId,
      attachmentId: 'att-1',
      name: 'notes.md',
      dataBase64: base64('# Notes\nKeep going.'),
    });
    const submitted = await t.call('turn.message.submit', {
      sessionId,
      messageId: 'm1',
      text: 'Then read this',
      placement: 'next_turn',
      attachmentIds: ['att-1'],
    });
    expect(submitted.disposition).toBe('queued');
    expect(submitted.message.attachments).toEqual([
      { attachmentId: 'att-1', name: 'notes.md', mediaType: 'text/plain', kind: 'text', sizeBytes: 19 },
    ]);
    // A replay answers the same; the same id with other files is a conflict.
    expect(
      (
        await t.call('turn.message.submit', {
          sessionId,
          messageId: 'm1',
          text: 'Then read this',
          placement: 'next_turn',
          attachmentIds: ['att-1'],
        })
      ).message,
    ).toEqual(submitted.message);
    const other = await t.invoke('turn.message.submit', {
      sessionId,
      messageId: 'm1',
      text: 'Then read this',
      placement: 'next_turn',
    });
    expect(other.ok ? null : other.error.code).toBe('operation_conflict');

    server.enqueue(textReply('Read it.'));
    const stopped = await t.call('turn.stop', { sessionId, turnId: 't1' });
    expect(stopped.cancelledMessages.map((message) => message.attachments?.[0]?.name)).toEqual(['notes.md']);
    // Stop cancelled the queued one (its files go back to the composer): sent again, it starts at once.
    const again = await t.call('turn.message.submit', {
      sessionId,
      messageId: 'm2',
      text: 'Then read this',
      placement: 'next_turn',
      attachmentIds: ['att-1'],
    });
    expect(again.disposition).toBe('started');
    await t.waitForTurn(sessionId, 'm2', ['completed']);
    const body = (await server.waitForModelCall(1)).body as Body;
    expect(body.messages.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Then read this' },
        { type: 'text', text: 'Attached file notes.md:\n```\n# Notes\nKeep going.\n```' },
      ],
    });
  });

  it('are kept across a restart, and go with the follow-up once the session is free', async () => {
    server.enqueue(hangReply(['Working on it…']));
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Start something long' });
    await server.waitForModelCall(0);
    await t.call('attachment.add', {
      sessionId,
      attachmentId: 'att-1',
      name: 'notes.md',
      dataBase64: base64('# Notes\nKeep going.'),
    });
    await t.call('turn.message.submit', {
      sessionId,
      messageId: 'm1',
      text: 'Then read this',
      placement: 'next_turn',
      attachmentIds: ['att-1'],
    });

    await t.close();
    t = await startTestHost({ dataDir: temp.dir });
    const { messages } = await t.call('turn.message.query', { sessionId });
    expect(messages.find((message) => message.messageId === 'm1')?.attachments?.map((file) => file.name)).toEqual([
      'notes.md',
    ]);

    server.enqueue(textReply('Done at last.'), textReply('Read it.'));
    await t.call('turn.resume', { sessionId, turnId: 't1' });
    await t.waitForTurn(sessionId, 'm1', ['completed']);
    const body = server.modelCalls().at(-1)?.body as Body;
    expect(JSON.stringify(body.messages.at(-1))).toContain('Attached file notes.md');
    const { items } = await t.call('transcript.page', { sessionId, limit: 20 });
    expect(items.find((item) => item.turnId === 'm1' && item.kind === 'user_message')?.data).toEqual({
      attachments: [{ attachmentId: 'att-1', name: 'notes.md', mediaType: 'text/plain', kind: 'text', sizeBytes: 19 }],
    });
  });

  it('are checked when the follow-up is sent: an unknown file is refused at once', async () => {
    server.enqueue(hangReply(['Working on it…']));
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Start something long' });
    await server.waitForModelCall(0);
    const refused = await t.invoke('turn.message.submit', {
      sessionId,
      messageId: 'm1',
      text: 'Then read this',
      placement: 'next_turn',
      attachmentIds: ['no-such-file'],
    });
    expect(refused.ok ? null : refused.error.code).toBe('not_found');
    expect((await t.call('turn.message.query', { sessionId })).messages).toEqual([]);
  });
});
