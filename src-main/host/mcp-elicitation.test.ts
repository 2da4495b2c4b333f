import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InteractionRecord } from '../../src-shared/interaction-model';
import { SECRET_MASK } from '../../src-shared/interaction-validation';
import { startTestHost, type TestHost } from '../testing/host-fixture';
import { createElicitTestServer, elicitTestServerCommand } from '../testing/mcp-servers/elicit-test-server';
import { startHttpTestServer } from '../testing/mcp-servers/http-test-server';
import { waitFor } from '../testing/wait-for';

let t: TestHost;
const reopened: string[] = [];
beforeEach(async () => {
  t = await startTestHost({ mcpBounds: { connectMs: 20_000 } });
});
afterEach(async () => {
  await t.close();
  for (const dir of reopened.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function addServer(): Promise<void> {
  const { command, args } = elicitTestServerCommand();
  await t.call('mcp.server.create', { name: 'Labels', transport: 'stdio', command, args });
}
async function startAsking(turnId = 't1'): Promise<{ sessionId: string; question: InteractionRecord }> {
  const { sessionId } = (await t.call('session.create', { permissionMode: 'full' })).session;
  await t.call('turn.start', { sessionId, turnId, text: '/tool labels__ask_details {}' });
  const question = await waitFor(
    async () => (await t.call('interaction.list', { sessionId, status: 'pending' })).interactions[0] ?? null,
    { message: 'the server’s question' },
  );
  return { sessionId, question };
}
const items = async (sessionId: string) => (await t.call('transcript.page', { sessionId, limit: 200 })).items;
const resultText = async (sessionId: string) => {
  const result = (await items(sessionId)).filter((item) => item.kind === 'tool_result').at(-1)?.data as
    { output: { text?: string; error?: string } } | undefined;
  return result?.output.text ?? result?.output.error ?? null;
};

describe('MCP elicitation becomes a Cairn question', () => {
  it('shows the server’s form while the call runs; a valid answer goes back to the server and the call continues', async () => {
    await addServer();
    const { sessionId, question } = await startAsking();
    expect(question.request).toEqual({
      kind: 'form',
      title: 'The MCP server "Labels" asks',
      description: 'Which label should I print?',
      fields: [
        {
          id: 'name',
          label: 'Your name',
          help: 'As it should appear on the label.',
          required: true,
          type: 'string',
          minLength: 2,
        },
        { id: 'field_2', label: 'Copies', required: true, type: 'integer', minimum: 1, maximum: 10, default: 1 },
        {
          id: 'colour',
          label: 'Colour',
          required: false,
          type: 'single_select',
          options: [
            { value: 'option_1', label: 'Light blue' },
            { value: 'Red', label: 'Bright red' },
          ],
        },
        { id: 'express', label: 'Express delivery', required: false, type: 'boolean' },
        { id: 'token', label: 'Access token', required: false, type: 'string', secret: true },
      ],
    });
    // The run is still running (the call is live), and the transcript shows the question where it was asked.
    expect((await t.call('turn.query', { sessionId, turnId: 't1' })).turn.status).toBe('running');
    const notice = (await items(sessionId)).find((item) => item.kind === 'notice');
    expect(notice).toMatchObject({
      text: 'The MCP server "Labels" asks: Which label should I print?',
      data: { interactionId: question.interactionId },
    });

    // Checked against the schema at the boundary: nothing is recorded, the question stays open.
    const invalid = await t.invoke('interaction.answer', {
      interactionId: question.interactionId,
      answer: { action: 'accept', values: { name: 'A', field_2: 11, colour: 'Blue' } },
    });
    expect(invalid.ok ? null : invalid.error.code).toBe('invalid_input');
    expect(invalid.ok ? '' : invalid.error.message).toMatch(
      /name: Use at least 2 characters.*field_2: Enter 10 or less.*colour: "Blue" is not one of the options/,
    );
    expect((await t.call('interaction.get', { interactionId: question.interactionId })).interaction.status).toBe(
      'pending',
    );

    const answer = {
      action: 'accept' as const,
      values: { name: 'Ada', field_2: 3, colour: 'option_1', express: true, token: 'tok-5ecret' },
    };
    const answered = await t.call('interaction.answer', { interactionId: question.interactionId, answer });
    expect(answered.interaction).toMatchObject({
      status: 'answered',
      answer: { action: 'accept', values: { ...answer.values, token: SECRET_MASK } },
    });
    await t.waitForTurn(sessionId, 't1', ['completed']);
    // The server got its own property names and enum values back.
    expect(await resultText(sessionId)).toBe(
      'accepted {"name":"Ada","copies wanted":3,"colour":"Light blue","express":true,"tokenLength":10}',
    );
    expect(JSON.stringify({ events: t.events, items: await items(sessionId) })).not.toContain('tok-5ecret');
    // The same answer again is the same result; a different one is refused.
    expect(
      (await t.call('interaction.answer', { interactionId: question.interactionId, answer })).interaction.status,
    ).toBe('answered');
    const other = await t.invoke('interaction.answer', {
      interactionId: question.interactionId,
      answer: { action: 'decline' },
    });
    expect(other.ok ? null : other.error.code).toBe('operation_conflict');
  });

  it('works the same over Streamable HTTP (the question comes on the call’s event stream)', async () => {
    const http = await startHttpTestServer(createElicitTestServer);
    try {
      await t.call('mcp.server.create', { name: 'Labels', transport: 'http', url: http.url });
      const { sessionId, question } = await startAsking();
      expect(question.request).toMatchObject({ kind: 'form', title: 'The MCP server "Labels" asks' });
      await t.call('interaction.answer', {
        interactionId: question.interactionId,
        answer: { action: 'accept', values: { name: 'Grace', field_2: 2 } },
      });
      await t.waitForTurn(sessionId, 't1', ['completed']);
      expect(await resultText(sessionId)).toBe('accepted {"name":"Grace","copies wanted":2}');
    } finally {
      await http.close();
    }
  });

  it('decline and cancel are passed on to the server', async () => {
    await addServer();
    const first = await startAsking();
    await t.call('interaction.answer', { interactionId: first.question.interactionId, answer: { action: 'decline' } });
    await t.waitForTurn(first.sessionId, 't1', ['completed']);
    expect(await resultText(first.sessionId)).toBe('the person chose decline');
    const second = await startAsking('t2');
    await t.call('interaction.answer', { interactionId: second.question.interactionId, answer: { action: 'cancel' } });
    await t.waitForTurn(second.sessionId, 't2', ['completed']);
    expect(await resultText(second.sessionId)).toBe('the person chose cancel');
  });

  it('Stop while the question is pending closes it and settles promptly', async () => {
    await addServer();
    const { sessionId, question } = await startAsking();
    const started = Date.now();
    await t.call('turn.stop', { sessionId });
    // Closed in the same commit as the run's end.
    expect((await t.call('interaction.get', { interactionId: question.interactionId })).interaction).toMatchObject({
      status: 'closed',
      closeReason: 'turn_stopped',
    });
    await t.waitForTurn(sessionId, 't1', ['cancelled']);
    expect(Date.now() - started).toBeLessThan(3000);
    const late = await t.invoke('interaction.answer', {
      interactionId: question.interactionId,
      answer: { action: 'decline' },
    });
    expect(late.ok ? null : late.error.code).toBe('operation_conflict');
    expect((await t.call('interaction.list', { status: 'pending' })).interactions).toEqual([]);
  });

  it('after a host restart the question is closed as expired, never left answerable', async () => {
    await addServer();
    const { sessionId, question } = await startAsking();
    const dataDir = t.dataDir;
    reopened.push(dataDir);
    await t.host.close();
    t = await startTestHost({ dataDir });
    expect((await t.call('interaction.get', { interactionId: question.interactionId })).interaction).toMatchObject({
      status: 'closed',
      closeReason: 'expired',
    });
    expect((await t.call('turn.query', { sessionId, turnId: 't1' })).turn.status).toBe('interrupted');
    const late = await t.invoke('interaction.answer', {
      interactionId: question.interactionId,
      answer: { action: 'decline' },
    });
    expect(late.ok ? null : late.error.message).toMatch(/closed \(expired\)/);
  });

  it('while several calls of one server run, a question that could belong to any of them is refused with the reason, not guessed', async () => {
    await addServer();
    const first = await startAsking();
    const other = (await t.call('session.create', { permissionMode: 'full' })).session.sessionId;
    await t.call('turn.start', { sessionId: other, turnId: 't2', text: '/tool labels__ask_details {}' });
    await t.waitForTurn(other, 't2', ['completed']);
    expect(await resultText(other)).toMatch(
      /^elicitation failed: .*Cairn cannot tell which of the 2 calls running on this server asks, so the question was not shown/,
    );
    // The first question stands and is still answered into its own call.
    expect(
      (await t.call('interaction.list', { status: 'pending' })).interactions.map((record) => record.interactionId),
    ).toEqual([first.question.interactionId]);
    await t.call('interaction.answer', { interactionId: first.question.interactionId, answer: { action: 'decline' } });
    await t.waitForTurn(first.sessionId, 't1', ['completed']);
    expect(await resultText(first.sessionId)).toBe('the person chose decline');
  });

  it('answers the elicitation of a published server (server-everything’s trigger-elicitation-request)', async () => {
    const bin = join(process.cwd(), 'node_modules', '.bin', 'mcp-server-everything');
    await t.call('mcp.server.create', { name: 'Everything', transport: 'stdio', command: bin, args: ['stdio'] });
    const { sessionId } = (await t.call('session.create', { permissionMode: 'full' })).session;
    await t.call('turn.start', { sessionId, turnId: 't1', text: '/tool everything__trigger-elicitation-request {}' });
    const question = await waitFor(
      async () => (await t.call('interaction.list', { sessionId, status: 'pending' })).interactions[0] ?? null,
      { message: 'the server’s question' },
    );
    if (question.request.kind !== 'form') throw new Error('not a form');
    expect(question.request.fields.map((field) => `${field.id}:${field.type}`)).toEqual([
      'name:string',
      'check:boolean',
      'firstLine:string',
      'email:string',
      'homepage:string',
      'birthdate:string',
      'integer:integer',
      'number:number',
      'untitledSingleSelectEnum:single_select',
      'untitledMultipleSelectEnum:multi_select',
      'titledSingleSelectEnum:single_select',
      'titledMultipleSelectEnum:multi_select',
      'legacyTitledEnum:single_select',
    ]);
    const values = {
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      integer: 7,
      untitledSingleSelectEnum: 'Rachel',
      titledMultipleSelectEnum: ['fish-2'],
      legacyTitledEnum: 'pet-3',
    };
    await t.call('interaction.answer', { interactionId: question.interactionId, answer: { action: 'accept', values } });
    await t.waitForTurn(sessionId, 't1', ['completed']);
    const text = await resultText(sessionId);
    expect(text).toContain('User provided the requested information');
    expect(text).toContain('- Name: Ada Lovelace');
    expect(text).toContain('"titledMultipleSelectEnum": [\n      "fish-2"\n    ]');
  });
});

describe('a crash while an MCP server’s question is pending', () => {
  it('the next start closes the question as expired with its run', async () => {
    const full = { now: false };
    const dataDir = t.dataDir;
    reopened.push(dataDir);
    await t.close();
    // Writes fail like a full disk's from the moment the host goes down: the run's end never reaches the record, as in a crash.
    t = await startTestHost({
      dataDir,
      mcpBounds: { connectMs: 20_000 },
      wrapStores: (stores) => ({
        ...stores,
        ledger: {
          ...stores.ledger,
          append(runId, events, now) {
            if (full.now) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
            stores.ledger.append(runId, events, now);
          },
        },
      }),
    });
    await addServer();
    const { sessionId, question } = await startAsking();
    full.now = true;
    await t.host.close();
    t = await startTestHost({ dataDir });
    expect((await t.call('interaction.get', { interactionId: question.interactionId })).interaction).toMatchObject({
      status: 'closed',
      closeReason: 'expired',
    });
    expect((await t.call('turn.query', { sessionId, turnId: 't1' })).turn.latestRun).toMatchObject({
      status: 'interrupted',
      terminalReason: 'app_restarted',
    });
  });
});
