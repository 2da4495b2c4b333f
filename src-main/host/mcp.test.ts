import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { McpServerRecord } from '../../src-shared/mcp-model';
import type { PermissionMode } from '../../src-shared/model';
import { startTestHost, type TestHost } from '../testing/host-fixture';
import { startHttpTestServer, type HttpTestServer } from '../testing/mcp-servers/http-test-server';
import { stdioTestServerCommand } from '../testing/mcp-servers/stdio-test-server';
import {
  startOpenAIChatServer,
  TEST_API_KEY,
  textReply,
  toolCallReply,
  type ProviderTestServer,
} from '../testing/provider-servers';
import { waitFor } from '../testing/wait-for';

const SECRET_ENV = 'env-secret-7f3a9c2e51';
const SECRET_HEADER = 'Bearer header-secret-b81d44e0c9';

let t: TestHost;
let http: HttpTestServer;
/** Data directories of hosts closed and reopened by a test (the fixture removes only its own). */
const reopened: string[] = [];
beforeEach(async () => {
  t = await startTestHost({ mcpBounds: { connectMs: 20_000 } });
  http = await startHttpTestServer();
});
afterEach(async () => {
  await t.close();
  await http.close();
  for (const dir of reopened.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Closes the host, keeping its data directory, and starts a new host on it. */
async function restart(check: (dataDir: string) => void = () => {}): Promise<void> {
  const dataDir = t.dataDir;
  reopened.push(dataDir);
  await t.host.close();
  check(dataDir);
  t = await startTestHost({ dataDir });
}

async function addStdio(name = 'Notes'): Promise<McpServerRecord> {
  const { command, args } = stdioTestServerCommand();
  return (
    await t.call('mcp.server.create', {
      name,
      transport: 'stdio',
      command,
      args,
      env: [{ name: 'CAIRN_TEST_SECRET', secret: true, value: SECRET_ENV }],
    })
  ).server;
}
async function addHttp(name = 'Remote'): Promise<McpServerRecord> {
  return (
    await t.call('mcp.server.create', {
      name,
      transport: 'http',
      url: http.url,
      headers: [{ name: 'Authorization', secret: true, value: SECRET_HEADER }],
    })
  ).server;
}
async function session(
  permissionMode: PermissionMode,
  extra: { connectionId?: string; model?: string } = {},
): Promise<string> {
  return (await t.call('session.create', { permissionMode, ...extra })).session.sessionId;
}
const items = async (sessionId: string) => (await t.call('transcript.page', { sessionId, limit: 200 })).items;
const lastResult = async (sessionId: string) =>
  (await items(sessionId)).filter((item) => item.kind === 'tool_result').at(-1)?.data as
    { output: Record<string, unknown>; isError: boolean } | undefined;
const pending = async (sessionId: string) =>
  (await t.call('interaction.list', { sessionId, status: 'pending' })).interactions;
const statusOf = async (serverId: string) =>
  (await t.call('mcp.server.list', {})).servers.find((server) => server.serverId === serverId)?.status;

describe('MCP server settings', { timeout: 60_000 }, () => {
  it('creates, updates with the expected revision, disables and removes servers; secrets stay in the vault', async () => {
    const stdio = await addStdio();
    const remote = await addHttp();
    expect(stdio).toMatchObject({
      name: 'Notes',
      transport: 'stdio',
      enabled: true,
      revision: 1,
      env: [{ name: 'CAIRN_TEST_SECRET', secret: true, value: null, hasValue: true }],
    });
    expect(remote.headers).toEqual([{ name: 'Authorization', secret: true, value: null, hasValue: true }]);
    const duplicate = await t.invoke('mcp.server.create', { name: 'notes', transport: 'http', url: http.url });
    expect(duplicate.ok ? null : duplicate.error.code).toBe('invalid_input');
    const missingValue = await t.invoke('mcp.server.create', {
      name: 'Other',
      transport: 'http',
      url: http.url,
      headers: [{ name: 'X-Key', secret: true }],
    });
    expect(missingValue.ok ? null : missingValue.error.message).toMatch(/Give a value for the secret header X-Key/);

    const renamed = await t.call('mcp.server.update', {
      serverId: stdio.serverId,
      expectedRevision: 1,
      name: 'Notebook',
      env: [
        { name: 'CAIRN_TEST_SECRET', secret: true },
        { name: 'PLAIN', secret: false, value: 'shown' },
      ],
    });
    expect(renamed.server).toMatchObject({
      name: 'Notebook',
      revision: 2,
      env: [
        { name: 'CAIRN_TEST_SECRET', hasValue: true },
        { name: 'PLAIN', value: 'shown' },
      ],
    });
    const stale = await t.invoke('mcp.server.update', { serverId: stdio.serverId, expectedRevision: 1, name: 'Late' });
    expect(stale.ok ? null : stale.error.code).toBe('revision_conflict');

    const disabled = await t.call('mcp.server.disable', { serverId: remote.serverId });
    expect(disabled.server.status.state).toBe('disabled');
    await t.call('mcp.server.remove', { serverId: remote.serverId });
    expect((await t.call('mcp.server.list', {})).servers.map((server) => server.name)).toEqual(['Notebook']);
    expect(t.events.some((event) => event.kind === 'mcp.server.removed' && event.serverId === remote.serverId)).toBe(
      true,
    );

    // The secret was sent to the server's process (Test connects); its value is in no result, event or database file.
    const tested = await t.call('mcp.server.test', { serverId: stdio.serverId });
    expect(tested).toMatchObject({ ok: true, serverInfo: { name: 'cairn-test-server', version: '1.2.3' } });
    expect(tested.tools.map((tool) => tool.name)).toEqual([
      'echo',
      'write_note',
      'slow',
      'show_env',
      'crash',
      'ask_model',
      'add_tool',
    ]);
    expect(tested.tools.find((tool) => tool.name === 'echo')).toMatchObject({
      agentName: 'notebook__echo',
      readOnly: true,
    });
    // The server prints the secret to stderr; the tail Cairn keeps shows it redacted.
    expect(tested.stderrTail).toContain('test server ready with secret [redacted]');
    const seen = JSON.stringify({ tested, list: await t.call('mcp.server.list', {}), events: t.events });
    expect(seen).not.toContain(SECRET_ENV);
    expect(seen).not.toContain(SECRET_HEADER);
    await restart((dataDir) => {
      // Every file under the data directory, in folders too, but the vault's own.
      const files = readdirSync(dataDir, { withFileTypes: true, recursive: true })
        .filter((entry) => entry.isFile() && !(entry.parentPath === dataDir && entry.name.startsWith('secret')))
        .map((entry) => join(entry.parentPath, entry.name));
      expect(files.some((name) => name.endsWith('.db') || name.endsWith('.sqlite'))).toBe(true);
      for (const file of files) {
        const bytes = readFileSync(file).toString('latin1');
        expect(bytes, file).not.toContain(SECRET_ENV);
        expect(bytes, file).not.toContain('header-secret-b81d44e0c9');
      }
    });
    // After a restart the secret is still there for the server (unsealed from the vault).
    expect((await t.call('mcp.server.test', { serverId: stdio.serverId })).stderrTail).toContain(
      'with secret [redacted]',
    );
  });

  it('Test reports a server that cannot start, with a clear reason', async () => {
    const { server } = await t.call('mcp.server.create', {
      name: 'Broken',
      transport: 'stdio',
      command: '/nonexistent/mcp-server',
    });
    const tested = await t.call('mcp.server.test', { serverId: server.serverId });
    expect(tested.ok).toBe(false);
    expect(tested.message).toMatch(/Could not start "\/nonexistent\/mcp-server": no such program/);
    const { server: unreachable } = await t.call('mcp.server.create', {
      name: 'Nobody',
      transport: 'http',
      url: 'http://127.0.0.1:9/mcp',
    });
    expect((await t.call('mcp.server.test', { serverId: unreachable.serverId })).ok).toBe(false);
  });

  it('sends secret headers to a Streamable HTTP server', async () => {
    const remote = await addHttp();
    const tested = await t.call('mcp.server.test', { serverId: remote.serverId });
    expect(tested.ok).toBe(true);
    expect(http.requests.some((headers) => headers.authorization === SECRET_HEADER)).toBe(true);
  });
});

describe('MCP tools in a turn', () => {
  let provider: ProviderTestServer;
  let connectionId: string;
  beforeEach(async () => {
    provider = await startOpenAIChatServer({ models: ['gpt-4o'] });
    connectionId = (
      await t.call('connection.create', {
        name: 'Local',
        providerType: 'openai_compatible',
        baseUrl: provider.baseUrl,
        apiKey: TEST_API_KEY,
      })
    ).connection.connectionId;
  });
  afterEach(async () => {
    await provider.close();
  });
  const toolNames = (body: unknown) =>
    (body as { tools: Array<{ function: { name: string } }> }).tools.map((tool) => tool.function.name);

  it('offers the tools namespaced, runs a read-only one in Explore, and sends its result in the next request', async () => {
    await addStdio();
    const sessionId = await session('explore', { connectionId, model: 'gpt-4o' });
    provider.enqueue(
      toolCallReply({ id: 'call_1', name: 'notes__echo', input: { text: 'hello mcp' } }),
      textReply('The server said hello.'),
    );
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Echo something' });
    await t.waitForTurn(sessionId, 't1', ['completed']);
    const first = toolNames((await provider.waitForModelCall(0)).body);
    // Read-only tools are offered in Explore; a tool that changes something is not.
    expect(first).toEqual(expect.arrayContaining(['notes__echo', 'notes__show_env', 'notes__slow']));
    expect(first).not.toContain('notes__write_note');
    const kinds = (await items(sessionId)).map((item) => item.kind);
    expect(kinds).toEqual(['user_message', 'tool_call', 'tool_result', 'assistant_message']);
    expect(await lastResult(sessionId)).toMatchObject({ isError: false, output: { text: 'echo: hello mcp' } });
    const second = (await provider.waitForModelCall(1)).body as {
      messages: Array<{ role: string; tool_call_id?: string; content?: unknown }>;
    };
    const toolMessage = second.messages.find((message) => message.role === 'tool');
    expect(toolMessage?.tool_call_id).toBe('call_1');
    expect(String(toolMessage?.content)).toContain('echo: hello mcp');
  });

  it('a stdio server gets the variables its settings give it, none of Cairn’s own', async () => {
    process.env.CAIRN_TOKEN = 'host-token-value-123';
    try {
      await addStdio();
      const sessionId = await session('explore', { connectionId, model: 'gpt-4o' });
      provider.enqueue(
        toolCallReply({ id: 'call_1', name: 'notes__show_env', input: { name: 'CAIRN_TOKEN' } }),
        toolCallReply({ id: 'call_2', name: 'notes__show_env', input: { name: 'CAIRN_TEST_SECRET' } }),
        textReply('Done.'),
      );
      await t.call('turn.start', { sessionId, turnId: 't1', text: 'Look' });
      await t.waitForTurn(sessionId, 't1', ['completed']);
      const results = (await items(sessionId))
        .filter((item) => item.kind === 'tool_result')
        .map((item) => (item.data as { output: { text: string } }).output.text);
      expect(results).toEqual(['CAIRN_TOKEN is not set', `CAIRN_TEST_SECRET is set (${SECRET_ENV.length} characters)`]);
    } finally {
      delete process.env.CAIRN_TOKEN;
    }
  });

  it('list_changed: a tool the server adds is offered in the next step', async () => {
    await addStdio();
    const sessionId = await session('full', { connectionId, model: 'gpt-4o' });
    provider.enqueue(toolCallReply({ id: 'call_1', name: 'notes__add_tool', input: {} }), textReply('Added.'));
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Add a tool' });
    await t.waitForTurn(sessionId, 't1', ['completed']);
    expect(toolNames((await provider.waitForModelCall(0)).body)).not.toContain('notes__late_tool');
    expect(toolNames((await provider.waitForModelCall(1)).body)).toContain('notes__late_tool');
  });

  it('a session can turn a server off: its tools are not offered there', async () => {
    const server = await addStdio();
    const sessionId = await session('full', { connectionId, model: 'gpt-4o' });
    const { servers } = await t.call('mcp.session.setServer', { sessionId, serverId: server.serverId, on: false });
    expect(servers).toEqual([{ serverId: server.serverId, name: 'Notes', enabled: true, on: false }]);
    provider.enqueue(textReply('ok'));
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'hi' });
    await t.waitForTurn(sessionId, 't1', ['completed']);
    expect(toolNames((await provider.waitForModelCall(0)).body).some((name) => name.startsWith('notes__'))).toBe(false);
  });
});

describe('MCP permissions, Stop and crashes', () => {
  it('Ask shows server, tool and arguments; allow for the session stops asking for that tool', async () => {
    await addStdio();
    const sessionId = await session('ask');
    await t.call('turn.start', { sessionId, turnId: 't1', text: '/tool notes__write_note {"note":"buy milk"}' });
    await t.waitForTurn(sessionId, 't1', ['waiting']);
    const [approval] = await pending(sessionId);
    expect(approval?.request).toEqual({
      kind: 'permission',
      toolName: 'notes__write_note',
      summary: 'Call write_note on the MCP server Notes',
      preview: { kind: 'mcp', server: 'Notes', tool: 'write_note', arguments: '{\n  "note": "buy milk"\n}' },
    });
    await t.call('interaction.answer', {
      interactionId: approval!.interactionId,
      answer: { action: 'accept', decision: 'allow_session' },
    });
    await t.waitForTurn(sessionId, 't1', ['completed']);
    expect(await lastResult(sessionId)).toMatchObject({
      isError: false,
      output: { text: 'saved note "buy milk"', structuredContent: { saved: 'buy milk' } },
    });
    await t.call('turn.start', { sessionId, turnId: 't2', text: '/tool notes__write_note {"note":"again"}' });
    await t.waitForTurn(sessionId, 't2', ['completed']);
    expect(await lastResult(sessionId)).toMatchObject({ isError: false, output: { text: 'saved note "again"' } });
    // The tool call was recorded before it ran.
    const kinds = (await items(sessionId)).filter((item) => item.turnId === 't2').map((item) => item.kind);
    expect(kinds.indexOf('tool_call')).toBeLessThan(kinds.indexOf('tool_result'));
  });

  it('Stop cancels an in-flight call and settles promptly even though the server ignores the cancellation', async () => {
    await addHttp();
    const sessionId = await session('full');
    await t.call('turn.start', { sessionId, turnId: 't1', text: '/tool remote__slow {}' });
    const call = await http.nextSlowCall();
    const started = Date.now();
    await t.call('turn.stop', { sessionId });
    await t.waitForTurn(sessionId, 't1', ['cancelled']);
    expect(Date.now() - started).toBeLessThan(3000);
    // The SDK told the server (notifications/cancelled); the server saw its request aborted.
    await call.cancelled;
    expect((await items(sessionId)).filter((item) => item.kind === 'tool_result')).toEqual([]);
  });

  it('a crashed stdio server fails its call with a clear reason and is started again on the next use', async () => {
    const server = await addStdio();
    const sessionId = await session('full');
    await t.call('turn.start', { sessionId, turnId: 't1', text: '/tool notes__crash {}' });
    await t.waitForTurn(sessionId, 't1', ['completed']);
    const failed = await lastResult(sessionId);
    expect(failed?.isError).toBe(true);
    expect(failed?.output).toMatchObject({ errorClass: 'server_exited' });
    expect(String(failed?.output.error)).toMatch(
      /The MCP server "Notes" stopped while running crash; it will be started again on its next use\..*crashing on purpose/,
    );
    expect(await statusOf(server.serverId)).toMatchObject({
      state: 'failed',
      stderrTail: expect.stringContaining('crashing on purpose'),
    });
    expect(
      t.events.some((event) => event.kind === 'mcp.server.changed' && event.server.status.state === 'failed'),
    ).toBe(true);
    await t.call('turn.start', { sessionId, turnId: 't2', text: '/tool notes__echo {"text":"back"}' });
    await t.waitForTurn(sessionId, 't2', ['completed']);
    expect(await lastResult(sessionId)).toMatchObject({ isError: false, output: { text: 'echo: back' } });
    expect(await statusOf(server.serverId)).toMatchObject({ state: 'connected' });
  });

  it('a server that will not start is not retried at every step, until its settings change', async () => {
    const { server } = await t.call('mcp.server.create', {
      name: 'Quitter',
      transport: 'stdio',
      command: process.execPath,
      args: ['-e', 'process.stderr.write("no config found"); process.exit(2)'],
    });
    const sessionId = await session('full');
    const starts = () =>
      t.events.filter(
        (event) =>
          event.kind === 'mcp.server.changed' &&
          event.server.serverId === server.serverId &&
          event.server.status.state === 'starting',
      ).length;
    await t.call('turn.start', { sessionId, turnId: 't1', text: '/tool quitter__anything {}' });
    await t.waitForTurn(sessionId, 't1', ['completed']);
    expect(await statusOf(server.serverId)).toMatchObject({
      state: 'failed',
      message: 'The server exited before it finished the MCP handshake.',
      stderrTail: 'no config found',
    });
    await t.call('turn.start', { sessionId, turnId: 't2', text: '/tool quitter__anything {}' });
    await t.waitForTurn(sessionId, 't2', ['completed']);
    expect(starts()).toBe(1);
    await t.call('mcp.server.update', {
      serverId: server.serverId,
      expectedRevision: 1,
      args: ['-e', 'process.exit(3)'],
    });
    await t.call('turn.start', { sessionId, turnId: 't3', text: '/tool quitter__anything {}' });
    await t.waitForTurn(sessionId, 't3', ['completed']);
    expect(starts()).toBe(2);
  });

  it('a host restart reconnects enabled servers', async () => {
    const server = await addStdio();
    const { server: off } = await t.call('mcp.server.create', {
      name: 'Off',
      transport: 'http',
      url: http.url,
      enabled: false,
    });
    await restart();
    await waitFor(async () => (await statusOf(server.serverId))?.state === 'connected', {
      message: 'the enabled server to reconnect',
    });
    expect((await statusOf(server.serverId))?.tools.map((tool) => tool.agentName)).toContain('notes__echo');
    expect(await statusOf(off.serverId)).toMatchObject({ state: 'disabled' });
  });
});

describe('MCP prompts and resources', () => {
  it("lists the session servers' prompts and resources, fills a prompt and reads a resource", async () => {
    const server = await addStdio();
    const sessionId = await session('ask');
    const catalog = await t.call('mcp.session.catalog', { sessionId });
    expect(catalog.prompts).toEqual([
      {
        serverId: server.serverId,
        serverName: 'Notes',
        name: 'review',
        title: 'Review a file',
        description: 'Asks for a careful review.',
        arguments: [{ name: 'file', description: '', required: true }],
      },
    ]);
    expect(catalog.resources).toEqual([
      {
        serverId: server.serverId,
        serverName: 'Notes',
        uri: 'notes://today',
        name: 'Today’s notes',
        description: 'The notes of the day.',
        mimeType: 'text/plain',
      },
    ]);
    expect(
      await t.call('mcp.prompt.get', {
        sessionId,
        serverId: server.serverId,
        name: 'review',
        arguments: { file: 'app.ts' },
      }),
    ).toEqual({
      text: 'Please review app.ts carefully.',
    });
    expect(await t.call('mcp.resource.read', { sessionId, serverId: server.serverId, uri: 'notes://today' })).toEqual({
      uri: 'notes://today',
      mimeType: 'text/plain',
      text: 'Buy milk. Call Ada.',
    });
    await t.call('mcp.session.setServer', { sessionId, serverId: server.serverId, on: false });
    const off = await t.invoke('mcp.resource.read', { sessionId, serverId: server.serverId, uri: 'notes://today' });
    expect(off.ok ? null : off.error).toEqual({
      code: 'not_found',
      message: 'That MCP server is not on in this session.',
    });
    expect((await t.call('mcp.session.catalog', { sessionId })).resources).toEqual([]);
  });
});

describe('sampling', () => {
  it('is refused with a clear message', async () => {
    await addStdio();
    const sessionId = await session('full');
    await t.call('turn.start', { sessionId, turnId: 't1', text: '/tool notes__ask_model {}' });
    await t.waitForTurn(sessionId, 't1', ['completed']);
    const result = await lastResult(sessionId);
    expect(result?.isError).toBe(true);
    expect(String(result?.output.error)).toMatch(
      /sampling refused: .*Cairn does not let MCP servers use its model \(sampling is refused\)/,
    );
  });
});

describe('a published server (@modelcontextprotocol/server-everything)', () => {
  it('connects over stdio, lists its tools and runs its echo tool', async () => {
    const bin = join(process.cwd(), 'node_modules', '.bin', 'mcp-server-everything');
    const { server } = await t.call('mcp.server.create', {
      name: 'Everything',
      transport: 'stdio',
      command: bin,
      args: ['stdio'],
    });
    const tested = await t.call('mcp.server.test', { serverId: server.serverId });
    expect(tested.ok).toBe(true);
    expect(tested.tools.map((tool) => tool.name)).toContain('echo');
    const sessionId = await session('full');
    await t.call('turn.start', { sessionId, turnId: 't1', text: '/tool everything__echo {"message":"from cairn"}' });
    await t.waitForTurn(sessionId, 't1', ['completed']);
    expect(JSON.stringify((await lastResult(sessionId))?.output)).toContain('from cairn');
  });
});
