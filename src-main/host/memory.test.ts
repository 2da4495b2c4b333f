import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OFFLINE_DEMO_CONNECTION_ID } from '../../src-shared/connection-model';
import { MEMORY_DATABASE_FILE } from '../storage/memory-store';
import { startTestHost, tempDataDir, type TestHost } from '../testing/host-fixture';
import {
  startOpenAIChatServer,
  TEST_API_KEY,
  textReply,
  toolCallReply,
  type ProviderTestServer,
} from '../testing/provider-servers';
import { tempWorkspace } from '../testing/workspace-fixture';

const hosts: TestHost[] = [];
const servers: ProviderTestServer[] = [];
const cleanups: Array<() => void> = [];
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close();
  for (const server of servers.splice(0)) await server.close();
  cleanups.splice(0).forEach((cleanup) => cleanup());
});

async function host(options: Parameters<typeof startTestHost>[0] = {}) {
  const t = await startTestHost(options);
  hosts.push(t);
  return t;
}

function workspace(): string {
  const folder = tempWorkspace();
  cleanups.push(folder.cleanup);
  return folder.root;
}

describe('long-term memory', () => {
  it('the scripted agent remembers and recalls through tool calls recorded in the transcript', async () => {
    const t = await host();
    const root = workspace();
    const { session } = await t.call('session.create', {
      connectionId: OFFLINE_DEMO_CONNECTION_ID,
      workspacePath: root,
    });
    await t.call('turn.start', {
      sessionId: session.sessionId,
      turnId: 't1',
      text: '/remember The build uses pnpm, never npm',
    });
    await t.waitForTurn(session.sessionId, 't1', ['completed']);
    await t.call('turn.start', {
      sessionId: session.sessionId,
      turnId: 't2',
      text: '/remember global Answer in British English',
    });
    await t.waitForTurn(session.sessionId, 't2', ['completed']);
    await t.call('turn.start', { sessionId: session.sessionId, turnId: 't3', text: '/recall pnpm' });
    await t.waitForTurn(session.sessionId, 't3', ['completed']);

    const items = (await t.call('transcript.page', { sessionId: session.sessionId, limit: 100 })).items;
    const calls = items.filter((item) => item.kind === 'tool_call').map((item) => item.data?.toolName);
    expect(calls).toEqual(['remember', 'remember', 'recall']);
    const recalled = items.filter((item) => item.kind === 'tool_result').at(-1);
    expect(JSON.stringify(recalled?.data?.output)).toContain('The build uses pnpm, never npm');

    const { memories } = await t.call('memory.list', {});
    expect(memories.map((m) => [m.text, m.scope, m.workspacePath, m.sourceSessionId, m.sourceTurnId])).toEqual([
      ['Answer in British English', 'global', null, session.sessionId, 't2'],
      ['The build uses pnpm, never npm', 'workspace', root, session.sessionId, 't1'],
    ]);
    expect(t.events.filter((event) => event.kind === 'memory.changed')).toHaveLength(2);
  });

  it('a workspace memory needs a workspace: the tool says so', async () => {
    const t = await host();
    const { session } = await t.call('session.create', { connectionId: OFFLINE_DEMO_CONNECTION_ID });
    await t.call('turn.start', { sessionId: session.sessionId, turnId: 't1', text: '/remember Something' });
    await t.waitForTurn(session.sessionId, 't1', ['completed']);
    const result = (await t.call('transcript.page', { sessionId: session.sessionId })).items.find(
      (item) => item.kind === 'tool_result',
    );
    expect(result?.data?.isError).toBe(true);
    expect(JSON.stringify(result?.data?.output)).toMatch(/no workspace folder/);
  });

  it('the person edits and deletes; an edit against an older revision is refused', async () => {
    const t = await host();
    const { session } = await t.call('session.create', { connectionId: OFFLINE_DEMO_CONNECTION_ID });
    await t.call('turn.start', {
      sessionId: session.sessionId,
      turnId: 't1',
      text: '/remember global Deploy on Fridays',
    });
    await t.waitForTurn(session.sessionId, 't1', ['completed']);
    const [memory] = (await t.call('memory.list', {})).memories;
    if (memory === undefined) throw new Error('no memory');
    const edited = await t.call('memory.update', {
      memoryId: memory.memoryId,
      text: 'Never deploy on Fridays',
      expectedRevision: memory.revision,
    });
    expect(edited.memory).toMatchObject({ text: 'Never deploy on Fridays', editedBy: 'person', revision: 2 });
    const stale = await t.invoke('memory.update', {
      memoryId: memory.memoryId,
      text: 'Deploy whenever',
      expectedRevision: memory.revision,
    });
    expect(stale).toMatchObject({ ok: false, error: { code: 'revision_conflict' } });
    // The agent saying the old thing again adds a memory; it never overwrites the person's edit.
    await t.call('turn.start', {
      sessionId: session.sessionId,
      turnId: 't2',
      text: '/remember global Never deploy on Fridays',
    });
    await t.waitForTurn(session.sessionId, 't2', ['completed']);
    expect((await t.call('memory.list', {})).memories).toHaveLength(1);
    expect((await t.call('memory.list', { query: 'fridays' })).memories[0]?.editedBy).toBe('person');
    await t.call('memory.remove', { memoryId: memory.memoryId, expectedRevision: 2 });
    expect((await t.call('memory.list', {})).memories).toEqual([]);
    expect(await t.invoke('memory.remove', { memoryId: memory.memoryId })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  it('when the memory file cannot be opened, the host still starts and memory says it is unavailable', async () => {
    const temp = tempDataDir();
    cleanups.push(temp.cleanup);
    mkdirSync(join(temp.dir, MEMORY_DATABASE_FILE));
    const t = await host({ dataDir: temp.dir });
    const listed = await t.invoke('memory.list', {});
    expect(listed).toMatchObject({ ok: false, error: { code: 'operation_unavailable' } });
    expect(!listed.ok && listed.error.message).toMatch(/^Memory is unavailable: Cairn could not open/);
    const { session } = await t.call('session.create', { connectionId: OFFLINE_DEMO_CONNECTION_ID });
    await t.call('turn.start', { sessionId: session.sessionId, turnId: 't1', text: '/remember global Anything' });
    await t.waitForTurn(session.sessionId, 't1', ['completed']);
    const result = (await t.call('transcript.page', { sessionId: session.sessionId })).items.find(
      (item) => item.kind === 'tool_result',
    );
    expect(JSON.stringify(result?.data?.output)).toMatch(/Memory is unavailable/);
    // Everything else works: a plain turn completes.
    await t.call('turn.start', { sessionId: session.sessionId, turnId: 't2', text: 'Hello' });
    await t.waitForTurn(session.sessionId, 't2', ['completed']);
  });
});

describe('memory with a real provider wire format', () => {
  it('injects the memories into the request and sends a recall result back in the next request', async () => {
    const server = await startOpenAIChatServer({ models: ['gpt-4o-mini'] });
    servers.push(server);
    const t = await host({ retryBaseMs: 5 });
    const root = workspace();
    const { connection } = await t.call('connection.create', {
      name: 'Local',
      providerType: 'openai_compatible',
      baseUrl: server.baseUrl,
      apiKey: TEST_API_KEY,
    });
    const demo = await t.call('session.create', { connectionId: OFFLINE_DEMO_CONNECTION_ID, workspacePath: root });
    await t.call('turn.start', {
      sessionId: demo.session.sessionId,
      turnId: 't1',
      text: '/remember The staging server is called kestrel',
    });
    await t.waitForTurn(demo.session.sessionId, 't1', ['completed']);

    const { session } = await t.call('session.create', {
      connectionId: connection.connectionId,
      model: 'gpt-4o-mini',
      workspacePath: root,
    });
    server.enqueue(
      toolCallReply({ id: 'call_1', name: 'recall', input: { query: 'staging server' } }),
      textReply('It is kestrel.'),
    );
    await t.call('turn.start', { sessionId: session.sessionId, turnId: 't1', text: 'What is the staging server?' });
    await t.waitForTurn(session.sessionId, 't1', ['completed']);

    type Body = { messages: Array<{ role: string; content?: unknown }>; tools?: Array<{ function: { name: string } }> };
    const first = (await server.waitForModelCall(0)).body as Body;
    const system = first.messages.find((message) => message.role === 'system');
    expect(String(system?.content)).toContain('The staging server is called kestrel');
    expect(first.tools?.map((tool) => tool.function.name)).toEqual(expect.arrayContaining(['remember', 'recall']));
    const second = (await server.waitForModelCall(1)).body as Body;
    expect(String(second.messages.find((message) => message.role === 'tool')?.content)).toContain('kestrel');

    // A session in another workspace does not get this workspace's memory.
    const other = await t.call('session.create', {
      connectionId: connection.connectionId,
      model: 'gpt-4o-mini',
      workspacePath: workspace(),
    });
    server.enqueue(textReply('Hi.'));
    await t.call('turn.start', { sessionId: other.session.sessionId, turnId: 't1', text: 'Hi' });
    await t.waitForTurn(other.session.sessionId, 't1', ['completed']);
    const third = (await server.waitForModelCall(2)).body as Body;
    expect(String(third.messages.find((message) => message.role === 'system')?.content)).not.toContain('kestrel');
  });
});
