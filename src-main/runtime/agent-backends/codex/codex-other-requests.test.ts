import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../../../testing/host-fixture';
import type { InteractionRecord } from '../../../../src-shared/interaction-model';
import {
  startOpenAIResponsesServer,
  textReply,
  toolCallReply,
  type ProviderTestServer,
} from '../../../testing/provider-servers';
import { waitFor } from '../../../testing/wait-for';

let server: ProviderTestServer;
let t: TestHost;

beforeAll(async () => {
  server = await startOpenAIResponsesServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  server.discardQueued();
  await t.close();
});

/**
 * Codex's permissions request (its `request_permissions` tool, an under-development feature of codex
 * 0.171 enabled here) through the real app-server. An MCP server's elicitation could not be provoked
 * offline: Codex defers MCP tools behind its client-executed `tool_search`, which the fake Responses
 * server does not speak, and a direct call by name is refused ("unsupported call"); its mapping is
 * unit-tested in codex-requests.test.ts.
 */
async function codexSession() {
  t = await startTestHost({ codex: { retries: 0, config: ['features.request_permissions_tool=true'] } });
  const workspace = mkdtempSync(join(tmpdir(), 'cairn-codex-work-'));
  const { connection } = await t.call('connection.create', {
    name: 'Codex',
    providerType: 'codex',
    baseUrl: server.baseUrl,
  });
  const { session } = await t.call('session.create', {
    connectionId: connection.connectionId,
    permissionMode: 'ask',
    workspacePath: workspace,
  });
  return { sessionId: session.sessionId, workspace };
}

async function pendingInteraction(sessionId: string): Promise<InteractionRecord> {
  return waitFor(async () => (await t.call('interaction.list', { sessionId, status: 'pending' })).interactions[0], {
    message: 'a pending interaction',
    timeoutMs: 20_000,
  });
}

const askForNetwork = (id: string) =>
  toolCallReply({
    id,
    name: 'request_permissions',
    input: { permissions: { network: { enabled: true } }, reason: 'Needs the package index' },
  });

describe("Codex's permissions request as a Cairn approval card (real codex app-server)", { timeout: 60_000 }, () => {
  it('shows what Codex asks for; allowed, Codex is granted it; denied, nothing is granted and the turn goes on', async () => {
    const { sessionId } = await codexSession();
    const base = server.modelCalls().length;
    server.enqueue(askForNetwork('call_p1'), textReply('I have network access now.'));
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Update the dependencies' });
    const asked = await pendingInteraction(sessionId);
    expect(asked.request).toMatchObject({
      kind: 'permission',
      toolName: 'codex_permissions',
      summary: 'Give Codex more access: network access',
    });
    expect(JSON.stringify(asked.request)).toContain('Needs the package index');
    await t.call('interaction.answer', {
      interactionId: asked.interactionId,
      answer: { action: 'accept', decision: 'allow_once' },
    });
    expect((await t.waitForTurn(sessionId, 't1', ['completed', 'failed'])).status).toBe('completed');
    const granted = server.toolResultsIn(base + 1).find((result) => result.toolCallId === 'call_p1');
    expect(JSON.parse(granted?.content ?? '')).toMatchObject({
      permissions: { network: { enabled: true } },
      scope: 'turn',
    });

    server.enqueue(askForNetwork('call_p2'), textReply('Then I will work offline.'));
    await t.call('turn.start', { sessionId, turnId: 't2', text: 'Try once more' });
    const again = await pendingInteraction(sessionId);
    await t.call('interaction.answer', {
      interactionId: again.interactionId,
      answer: { action: 'deny', reason: 'Stay offline' },
    });
    expect((await t.waitForTurn(sessionId, 't2', ['completed', 'failed'])).status).toBe('completed');
    const refused = server.toolResultsIn(base + 3).find((result) => result.toolCallId === 'call_p2');
    expect(JSON.parse(refused?.content ?? '')).not.toMatchObject({ permissions: { network: { enabled: true } } });
    const items = (await t.call('transcript.page', { sessionId, limit: 100 })).items;
    expect(items.at(-1)?.text).toBe('Then I will work offline.');
  });
});
