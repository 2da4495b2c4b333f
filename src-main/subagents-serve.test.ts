import { afterEach, describe, expect, it } from 'vitest';
import { agentTreeModel, type AgentCall } from './testing/agent-tree-model';
import { tempDataDir } from './testing/host-fixture';
import type { ProtocolClient } from './testing/protocol-client';
import {
  hangReply,
  startOpenAIChatServer,
  streamReply,
  TEST_API_KEY,
  textReply,
  type ProviderTestServer,
} from './testing/provider-servers';
import { serveWithClient } from './testing/serve-with-client';
import { waitFor } from './testing/wait-for';

/**
 * Subagents through a real SIGKILL of the headless host: the root and its children run on a real
 * provider connection (a local OpenAI-style server in this process), the host is a child process.
 */
const TOKEN = 'subagents-serve-token';
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const serve = (dataDir: string) => serveWithClient(dataDir, TOKEN, cleanups);

const FINISH = 'List the config files at the top of the workspace.';
const SLOW = ['Read the parser and summarise it.', 'Read the printer and summarise it.'] as const;
const call = (id: string, name: string, input: unknown) => ({ id, name, argumentChunks: [JSON.stringify(input)] });

/**
 * The root spawns three workers under spawn ids of its own and waits for them: one finishes, two
 * stream part of an answer and then hang. Resumed after the restart, the root replays two of its
 * spawns, resumes the interrupted children and waits again.
 */
function treeModel() {
  let childIds: string[] = [];
  const root = (agent: AgentCall) => {
    switch (agent.index) {
      case 0:
        return streamReply({
          toolCalls: [
            call('spawn_finish', 'spawn_agent', { agent: 'worker', task: FINISH, spawnId: 'finish' }),
            call('spawn_slow_1', 'spawn_agent', { agent: 'worker', task: SLOW[0], spawnId: 'slow-1' }),
            call('spawn_slow_2', 'spawn_agent', { agent: 'worker', task: SLOW[1], spawnId: 'slow-2' }),
          ],
        });
      case 1:
        childIds = ['spawn_finish', 'spawn_slow_1', 'spawn_slow_2'].map(
          (id) => (agent.toolResult(id) as { childSessionId: string }).childSessionId,
        );
        return streamReply({ toolCalls: [call('wait_1', 'wait_agents', { ids: childIds })] });
      case 2:
        // Resumed: a model that starts over would spawn again; the spawn ids give it the same children back.
        return streamReply({
          toolCalls: [
            call('spawn_finish_again', 'spawn_agent', { agent: 'worker', task: FINISH, spawnId: 'finish' }),
            call('spawn_slow_1_again', 'spawn_agent', { agent: 'worker', task: SLOW[0], spawnId: 'slow-1' }),
            call('resume_1', 'resume_agent', { id: childIds[1] }),
            call('resume_2', 'resume_agent', { id: childIds[2] }),
          ],
        });
      case 3:
        return streamReply({ toolCalls: [call('wait_2', 'wait_agents', { ids: childIds })] });
      default:
        return textReply('All three reports are in.');
    }
  };
  return agentTreeModel((agent) => {
    if (agent.task === null) return root(agent);
    if (agent.task === FINISH) return textReply('FINISH REPORT: config.json and .env.example.');
    const which = SLOW.indexOf(agent.task as (typeof SLOW)[number]) + 1;
    return agent.index === 0
      ? hangReply([`Slow ${which}: reading `, 'the first half'])
      : textReply(` and the rest. SLOW ${which} REPORT: done.`);
  });
}

describe('subagents through a SIGKILL of the headless host', () => {
  it('children mid-stream: truthful statuses after the restart, the resumed root learns them, replayed spawns return the same children, none runs twice', async () => {
    const provider: ProviderTestServer = await startOpenAIChatServer({ models: ['gpt-4o-mini'] });
    cleanups.push(() => provider.close());
    const temp = tempDataDir();
    cleanups.push(temp.cleanup);
    const model = treeModel();
    provider.enqueue(...model.replies(30));

    const first = await serve(temp.dir);
    const { connection } = await first.client.call('connection.create', {
      name: 'Local',
      providerType: 'openai_compatible',
      baseUrl: provider.baseUrl,
      apiKey: TEST_API_KEY,
    });
    const root = (
      await first.client.call('session.create', { connectionId: connection.connectionId, model: 'gpt-4o-mini' })
    ).session.sessionId;
    await first.client.call('turn.start', {
      sessionId: root,
      turnId: 't1',
      text: 'Summarise the parser and the printer, and list the config files.',
    });

    const text = async (client: ProtocolClient, sessionId: string) =>
      (await client.call('transcript.page', { sessionId, limit: 100 })).items.map((item) => item.text).join('');
    // The finisher done, both slow children part-way through their answers, the root inside wait_agents.
    const before = await waitFor(
      async () => {
        const { children } = (await first.client.call('agent.tree', { sessionId: root })).tree;
        if (children.map((child) => child.status).join() !== 'completed,running,running') return null;
        for (const [index, child] of children.slice(1).entries()) {
          if (!(await text(first.client, child.childSessionId)).includes(`Slow ${index + 1}: reading the first half`))
            return null;
        }
        const rootItems = (await first.client.call('transcript.page', { sessionId: root, limit: 100 })).items;
        return rootItems.some((item) => item.kind === 'tool_call' && item.data?.toolName === 'wait_agents')
          ? children
          : null;
      },
      { timeoutMs: 30_000, message: 'one child finished, two mid-stream, the root waiting' },
    );
    const ids = before.map((child) => child.childSessionId);
    first.server.child.kill('SIGKILL');
    expect(await first.server.exited).toBe('SIGKILL');

    const second = await serve(temp.dir);
    const client = second.client;
    // The record tells the truth: the finished child stays finished, the rest were cut off by the restart.
    const after = (await client.call('agent.tree', { sessionId: root })).tree;
    expect(after.children.map((child) => [child.childSessionId, child.status, child.terminalReason])).toEqual([
      [ids[0], 'completed', 'end_turn'],
      [ids[1], 'interrupted', 'app_restarted'],
      [ids[2], 'interrupted', 'app_restarted'],
    ]);
    expect((await client.call('turn.query', { sessionId: root, turnId: 't1' })).turn).toMatchObject({
      status: 'interrupted',
      latestRun: { status: 'interrupted', terminalReason: 'app_restarted' },
    });
    expect(await text(client, ids[1]!)).toContain('Slow 1: reading the first half');

    await client.call('turn.resume', { sessionId: root, turnId: 't1' });
    await waitFor(
      async () =>
        (await client.call('turn.query', { sessionId: root, turnId: 't1' })).turn.status === 'completed' ? true : null,
      {
        timeoutMs: 30_000,
        message: 'the resumed root to finish',
      },
    );

    const rootCalls = model.callsOf(null);
    expect(rootCalls).toHaveLength(5);
    // The resumed root's next model request says which children finished and which the restart interrupted.
    const resumed = rootCalls[2]!;
    expect(resumed.system).toContain(`- ${ids[0]} (worker): completed — ${FINISH}`);
    expect(resumed.system).toContain(`- ${ids[1]} (worker): interrupted (app_restarted) — ${SLOW[0]}`);
    expect(resumed.system).toContain(`- ${ids[2]} (worker): interrupted (app_restarted) — ${SLOW[1]}`);
    // The wait cut off by the kill is closed with an error, not left dangling.
    expect(resumed.toolResult('wait_1')).toMatchObject({ error: expect.stringContaining('interrupted') });
    // Replayed spawns return the existing children; resume_agent starts the interrupted ones again.
    const afterReplay = rootCalls[3]!;
    expect(afterReplay.toolResult('spawn_finish_again')).toMatchObject({
      childSessionId: ids[0],
      replayed: true,
      status: 'completed',
    });
    expect(afterReplay.toolResult('spawn_slow_1_again')).toMatchObject({
      childSessionId: ids[1],
      replayed: true,
      status: 'interrupted',
    });
    expect(afterReplay.toolResult('resume_1')).toMatchObject({ childSessionId: ids[1], status: 'running' });
    expect(afterReplay.toolResult('resume_2')).toMatchObject({ childSessionId: ids[2], status: 'running' });
    const reports = (
      rootCalls[4]!.toolResult('wait_2') as { children: { childSessionId: string; status: string; report: string }[] }
    ).children;
    expect(reports.map((child) => [child.childSessionId, child.status])).toEqual(ids.map((id) => [id, 'completed']));
    expect(reports[0]!.report).toBe('FINISH REPORT: config.json and .env.example.');
    expect(reports[1]!.report).toContain('SLOW 1 REPORT: done.');
    expect(reports[2]!.report).toContain('SLOW 2 REPORT: done.');

    // No child ran twice: still three children; the finisher asked the model once, each slow child
    // once before the kill and once when resumed, in one turn of two runs.
    const final = (await client.call('agent.tree', { sessionId: root })).tree;
    expect(final.children.map((child) => child.childSessionId)).toEqual(ids);
    expect(model.callsOf(FINISH)).toHaveLength(1);
    expect(model.callsOf(SLOW[0])).toHaveLength(2);
    expect(model.callsOf(SLOW[1])).toHaveLength(2);
    const turnsOf = async (sessionId: string) =>
      (await client.call('transcript.page', { sessionId, limit: 100 })).turns.map((turn) => [
        turn.status,
        turn.latestRun.attempt,
      ]);
    expect(await turnsOf(ids[0]!)).toEqual([['completed', 1]]);
    expect(await turnsOf(ids[1]!)).toEqual([['completed', 2]]);
    expect(await turnsOf(ids[2]!)).toEqual([['completed', 2]]);
  }, 90_000); // two host processes start, one after the other
});
