import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OFFLINE_DEMO_CONNECTION_ID } from '../../src-shared/connection-model';
import { startTestHost, tempDataDir, type TestHost } from '../testing/host-fixture';
import {
  startAnthropicServer,
  startOllamaServer,
  startOpenAIChatServer,
  TEST_API_KEY,
  textReply,
  type ProviderTestServer,
} from '../testing/provider-servers';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const base64 = (value: string | Buffer) => Buffer.from(value).toString('base64');

let t: TestHost;
let server: ProviderTestServer;
let temp: { dir: string; cleanup: () => void };

async function sessionOn(model: string): Promise<string> {
  const { connection } = await t.call('connection.create', {
    name: 'Local server',
    providerType: 'openai_compatible',
    baseUrl: server.baseUrl,
    apiKey: TEST_API_KEY,
  });
  return (await t.call('session.create', { connectionId: connection.connectionId, model })).session.sessionId;
}

beforeEach(async () => {
  server = await startOpenAIChatServer({ models: ['gpt-4o-mini', 'text-only-7b'] });
  temp = tempDataDir();
  t = await startTestHost({ dataDir: temp.dir });
});
afterEach(async () => {
  await t.close();
  await server.close();
  temp.cleanup();
});

describe('attachments', () => {
  it('sends a text file as text and an image as an image part, and both survive a restart', async () => {
    const sessionId = await sessionOn('gpt-4o-mini');
    const text = await t.call('attachment.add', {
      sessionId,
      attachmentId: 'att-text',
      name: 'notes.md',
      dataBase64: base64('# Plan\nShip it.'),
    });
    const image = await t.call('attachment.add', {
      sessionId,
      attachmentId: 'att-image',
      name: 'screen.png',
      dataBase64: base64(PNG),
    });
    expect(text.attachment).toMatchObject({ kind: 'text', sizeBytes: 15 });
    expect(image.attachment).toMatchObject({ kind: 'image', mediaType: 'image/png', sizeBytes: PNG.length });

    server.enqueue(textReply('Seen both.'));
    await t.call('turn.start', {
      sessionId,
      turnId: 't1',
      text: 'Read these',
      attachmentIds: ['att-text', 'att-image'],
    });
    await t.waitForTurn(sessionId, 't1', ['completed']);
    const body = (await server.waitForModelCall(0)).body as { messages: Array<{ role: string; content: unknown }> };
    expect(body.messages.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Read these' },
        { type: 'text', text: 'Attached file notes.md:\n```\n# Plan\nShip it.\n```' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${base64(PNG)}` } },
      ],
    });

    await t.close();
    t = await startTestHost({ dataDir: temp.dir });
    const { items } = await t.call('transcript.page', { sessionId, limit: 10 });
    expect(items[0]?.data).toEqual({
      attachments: [
        { attachmentId: 'att-text', name: 'notes.md', mediaType: 'text/plain', kind: 'text', sizeBytes: 15 },
        { attachmentId: 'att-image', name: 'screen.png', mediaType: 'image/png', kind: 'image', sizeBytes: PNG.length },
      ],
    });
    const read = await t.call('attachment.read', { attachmentId: 'att-image' });
    expect(Buffer.from(read.dataBase64, 'base64').equals(PNG)).toBe(true);
  });

  it('stores one file per content, however often it is attached', async () => {
    const sessionId = await sessionOn('gpt-4o-mini');
    await t.call('attachment.add', { sessionId, attachmentId: 'a1', name: 'one.txt', dataBase64: base64('same') });
    await t.call('attachment.add', { sessionId, attachmentId: 'a2', name: 'two.txt', dataBase64: base64('same') });
    const { readdirSync } = await import('node:fs');
    const { join } = await import('node:path');
    const folders = readdirSync(join(temp.dir, 'attachments'));
    expect(folders.flatMap((folder) => readdirSync(join(temp.dir, 'attachments', folder)))).toHaveLength(1);
  });

  it('refuses an image for a model without vision and for the Offline demo, with a message that says why', async () => {
    const sessionId = await sessionOn('text-only-7b');
    const refused = await t.invoke('attachment.add', {
      sessionId,
      attachmentId: 'a1',
      name: 'screen.png',
      dataBase64: base64(PNG),
    });
    expect(refused).toEqual({
      ok: false,
      error: {
        code: 'invalid_input',
        message: expect.stringContaining('“screen.png” cannot be attached: text-only-7b does not accept images'),
      },
    });
    const demo = (await t.call('session.create', { connectionId: OFFLINE_DEMO_CONNECTION_ID })).session.sessionId;
    const demoRefused = await t.invoke('attachment.add', {
      sessionId: demo,
      attachmentId: 'a2',
      name: 'screen.png',
      dataBase64: base64(PNG),
    });
    expect(demoRefused.ok ? null : demoRefused.error.message).toContain('The Offline demo cannot look at images');
    expect(
      (
        await t.invoke('attachment.add', {
          sessionId: demo,
          attachmentId: 'a3',
          name: 'ok.txt',
          dataBase64: base64('fine'),
        })
      ).ok,
    ).toBe(true);
  });

  it('checks the model again at send time, and refuses ids of another session or more than ten', async () => {
    const sessionId = await sessionOn('gpt-4o-mini');
    await t.call('attachment.add', { sessionId, attachmentId: 'img', name: 'screen.png', dataBase64: base64(PNG) });
    await t.call('session.configure', { sessionId, model: 'text-only-7b' });
    const refused = await t.invoke('turn.start', { sessionId, turnId: 't1', text: 'Look', attachmentIds: ['img'] });
    expect(refused.ok ? null : refused.error).toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('cannot be sent'),
    });
    const other = await sessionOn('gpt-4o-mini');
    const foreign = await t.invoke('turn.start', {
      sessionId: other,
      turnId: 't2',
      text: 'Look',
      attachmentIds: ['img'],
    });
    expect(foreign.ok ? null : foreign.error.code).toBe('not_found');
    const many = await t.invoke('turn.start', {
      sessionId,
      turnId: 't3',
      text: 'Look',
      attachmentIds: Array.from({ length: 11 }, (_, i) => `a${i}`),
    });
    expect(many.ok ? null : many.error).toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('at most 10 attachments'),
    });
  });
});

describe('attachments on the other providers', () => {
  it('Anthropic receives the image as a base64 image block and the text file as text', async () => {
    const anthropic = await startAnthropicServer({ models: ['claude-test'] });
    try {
      const { connection } = await t.call('connection.create', {
        name: 'Anthropic',
        providerType: 'anthropic',
        baseUrl: anthropic.baseUrl,
        apiKey: TEST_API_KEY,
      });
      const sessionId = (
        await t.call('session.create', { connectionId: connection.connectionId, model: 'claude-test' })
      ).session.sessionId;
      await t.call('attachment.add', { sessionId, attachmentId: 'a-text', name: 'a.txt', dataBase64: base64('alpha') });
      await t.call('attachment.add', { sessionId, attachmentId: 'a-image', name: 'b.png', dataBase64: base64(PNG) });
      anthropic.enqueue(textReply('Got them.'));
      await t.call('turn.start', { sessionId, turnId: 't1', text: 'Look', attachmentIds: ['a-text', 'a-image'] });
      await t.waitForTurn(sessionId, 't1', ['completed']);
      const body = (await anthropic.waitForModelCall(0)).body as {
        messages: Array<{ role: string; content: unknown }>;
      };
      expect(body.messages.at(-1)).toMatchObject({
        role: 'user',
        content: [
          { type: 'text', text: 'Look' },
          { type: 'text', text: 'Attached file a.txt:\n```\nalpha\n```' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: base64(PNG) } },
        ],
      });
    } finally {
      await anthropic.close();
    }
  });

  it('Ollama receives the image for a vision model and refuses it for a text-only one', async () => {
    const ollama = await startOllamaServer({ models: ['llava:7b', 'llama3.1:8b'] });
    try {
      const { connection } = await t.call('connection.create', {
        name: 'Ollama',
        providerType: 'ollama',
        baseUrl: ollama.baseUrl,
      });
      const sessionId = (await t.call('session.create', { connectionId: connection.connectionId, model: 'llava:7b' }))
        .session.sessionId;
      await t.call('attachment.add', { sessionId, attachmentId: 'o-image', name: 'c.png', dataBase64: base64(PNG) });
      ollama.enqueue(textReply('A tiny picture.'));
      await t.call('turn.start', { sessionId, turnId: 't1', text: 'Describe', attachmentIds: ['o-image'] });
      await t.waitForTurn(sessionId, 't1', ['completed']);
      const body = (await ollama.waitForModelCall(0)).body as {
        messages: Array<{ role: string; content: unknown; images?: unknown }>;
      };
      expect(body.messages.at(-1)).toMatchObject({ role: 'user', images: [base64(PNG)] });
      const textOnly = (await t.call('session.create', { connectionId: connection.connectionId, model: 'llama3.1:8b' }))
        .session.sessionId;
      const refused = await t.invoke('attachment.add', {
        sessionId: textOnly,
        attachmentId: 'o-2',
        name: 'c.png',
        dataBase64: base64(PNG),
      });
      expect(refused.ok ? null : refused.error.message).toContain('llama3.1:8b does not accept images');
    } finally {
      await ollama.close();
    }
  });
});
