import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentTreeModel } from '../testing/agent-tree-model';
import { startTestHost, type TestHost } from '../testing/host-fixture';
import {
  startOpenAIChatServer,
  streamReply,
  TEST_API_KEY,
  textReply,
  type ProviderTestServer,
} from '../testing/provider-servers';

/** Subagents over a real provider connection: the parent and its children are all served by a local OpenAI-style server. */
let t: TestHost;
let server: ProviderTestServer;
let root: string;

beforeEach(async () => {
  server = await startOpenAIChatServer({ models: ['gpt-4o-mini'] });
  t = await startTestHost({ retryBaseMs: 5 });
  const { connection } = await t.call('connection.create', {
    name: 'Local server',
    providerType: 'openai_compatible',
    baseUrl: server.baseUrl,
    apiKey: TEST_API_KEY,
  });
  root = (await t.call('session.create', { connectionId: connection.connectionId, model: 'gpt-4o-mini' })).session
    .sessionId;
});
afterEach(async () => {
  server.discardQueued();
  await t.close();
  await server.close();
});

const call = (id: string, name: string, input: unknown) => ({ id, name, argumentChunks: [JSON.stringify(input)] });

describe('subagents over a real provider', () => {
  it('a child’s final report reaches the parent’s next model request', async () => {
    const task = 'Count the TODO comments in src and say where they are.';
    const report = 'CHILD REPORT: 3 TODOs, in a.ts:4, b.ts:9 and c.ts:1.';
    const model = agentTreeModel((agent) => {
      if (agent.task === task) return textReply(report, 4);
      switch (agent.index) {
        case 0:
          return streamReply({ toolCalls: [call('call_spawn', 'spawn_agent', { agent: 'worker', task })] });
        case 1: {
          const spawned = agent.toolResult('call_spawn') as { childSessionId: string };
          return streamReply({ toolCalls: [call('call_wait', 'wait_agents', { ids: [spawned.childSessionId] })] });
        }
        default:
          return textReply('There are 3 TODOs.');
      }
    });
    server.enqueue(...model.replies(10));
    await t.call('turn.start', { sessionId: root, turnId: 't1', text: 'How many TODOs are there?' });
    await t.waitForTurn(root, 't1', ['completed']);

    const [child] = (await t.call('agent.tree', { sessionId: root })).tree.children;
    expect(child).toMatchObject({ status: 'completed', task, agentId: 'worker' });
    // The child's own request carried its instructions and its task.
    const [childCall] = model.callsOf(task);
    expect(childCall?.system).toContain('You are a worker agent started by another agent.');
    // The parent's request after wait_agents carries the child's report, word for word, as the tool result.
    const rootCalls = model.callsOf(null);
    expect(rootCalls).toHaveLength(3);
    expect(rootCalls[2]!.toolResult('call_wait')).toEqual({
      children: [{ childSessionId: child!.childSessionId, status: 'completed', terminalReason: 'end_turn', report }],
    });
    const body = JSON.stringify(rootCalls[2]!.request.body);
    expect(body).toContain(report.replace(/"/g, '\\"'));
    // Every request of the tree went to the provider: no scripted backend stood in.
    expect(server.modelCalls()).toHaveLength(4);
  });
});
