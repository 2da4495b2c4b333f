import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentModel, type AgentModel } from '../../../testing/agent-model';
import { startTestHost, type TestHost } from '../../../testing/host-fixture';
import { hangReply, textReply, toolCallReply, type ProviderTestServer } from '../../../testing/provider-servers';
import { agentHome, linkRealAgents, REAL_AGENTS, realAgentsInstalled } from '../../../testing/real-acp-agents';
import { waitFor } from '../../../testing/wait-for';

/**
 * The real agents (`src-main/testing/real-acp-agents.ts`), linked into the host's `<dataDir>/agents`,
 * where Cairn looks for agents installed on demand; offline, each against Cairn's fake provider
 * server. Each runs a text turn, a tool call Cairn approves (the agent writes the file in the
 * session's workspace), and a Stop in the middle of a streamed answer, in one session.
 */

const installed = realAgentsInstalled();

describe.skipIf(!installed).each(REAL_AGENTS)(
  'the real $kind agent in a Cairn session (offline)',
  { timeout: 240_000 },
  (agent) => {
    let t: TestHost;
    let server: ProviderTestServer;
    let model: AgentModel;
    let sessionId: string;
    let workspace: string;

    beforeAll(async () => {
      model = agentModel();
      server = await agent.startServer(model.answer);
      t = await startTestHost({ acp: { bounds: { cancelMs: 3_000, startMs: 120_000, requestMs: 120_000 } } });
      linkRealAgents(t.dataDir);
      workspace = mkdtempSync(join(tmpdir(), `cairn-${agent.kind}-work-`));
      // The agent keeps its own state under HOME: a fresh one, so nothing of this machine's leaks in.
      const home = agentHome(agent.kind);
      const { connection } = await t.call('connection.create', {
        name: agent.kind,
        providerType: 'acp',
        baseUrl: server.baseUrl,
        apiKey: 'test-key',
        acpAgent: { preset: { kind: agent.kind, model: agent.model }, env: { HOME: home } },
      });
      const { session } = await t.call('session.create', {
        connectionId: connection.connectionId,
        permissionMode: 'ask',
        workspacePath: workspace,
      });
      sessionId = session.sessionId;
    }, 120_000);

    afterAll(async () => {
      await t.close();
      await server.close();
    });

    const items = async () => (await t.call('transcript.page', { sessionId, limit: 200 })).items;
    const turnEnds = (turnId: string) =>
      waitFor(
        async () => {
          const outcome = await t.invoke('turn.query', { sessionId, turnId });
          return outcome.ok && ['completed', 'failed', 'cancelled'].includes(outcome.result.turn.status)
            ? outcome.result.turn
            : null;
        },
        { timeoutMs: 180_000, message: `turn ${turnId} to end` },
      );

    it('a text turn: the model’s streamed answer reaches the transcript and the turn completes', async () => {
      model.script(textReply('Seven herons on the weir.', 3));
      await t.call('turn.start', { sessionId, turnId: 't1', text: 'How many herons?' });
      const turn = await turnEnds('t1');
      expect(turn.latestRun).toMatchObject({ status: 'completed' });
      const said = (await items())
        .filter((item) => item.turnId === 't1' && item.kind === 'assistant_message')
        .map((item) => item.text);
      expect(said.join('')).toContain('Seven herons on the weir.');
      // The key reached the provider only through the agent's own variables.
      expect(model.calls[0]?.headers).toMatchObject(agent.keyHeader);
    });

    it('a file write asks first: an approval card with the diff; allowed, the agent writes the file in the workspace', async () => {
      const path = join(workspace, 'heron.txt');
      const before = agent.createsFiles ? null : 'no herons yet';
      if (before !== null) writeFileSync(path, before);
      model.script(toolCallReply(agent.writeCall(path, 'seven herons'), 2), textReply('Wrote it.', 2));
      await t.call('turn.start', { sessionId, turnId: 't2', text: 'Write heron.txt' });
      const card = await waitFor(
        async () => (await t.call('interaction.list', { sessionId, status: 'pending' })).interactions[0],
        {
          message: 'the approval card',
          timeoutMs: 180_000,
        },
      );
      expect(card.request).toMatchObject({ kind: 'permission', toolName: 'acp.edit' });
      expect(before === null ? existsSync(path) : readFileSync(path, 'utf8')).toBe(before ?? false);
      await t.call('interaction.answer', {
        interactionId: card.interactionId,
        answer: { action: 'accept', decision: 'allow_once' },
      });
      expect((await turnEnds('t2')).latestRun).toMatchObject({ status: 'completed' });
      expect(readFileSync(path, 'utf8')).toBe('seven herons');
      expect(
        (await items()).filter((item) => item.turnId === 't2' && item.kind === 'assistant_message').at(-1)?.text,
      ).toContain('Wrote it.');
    });

    it('Stop in the middle of a streamed answer: the turn ends cancelled within the bound', async () => {
      model.script(hangReply(['Counting the herons one by one']));
      await t.call('turn.start', { sessionId, turnId: 't3', text: 'Count them slowly' });
      await waitFor(
        async () => (await items()).some((item) => item.turnId === 't3' && item.text.includes('Counting')),
        { message: 'the first words', timeoutMs: 180_000 },
      );
      const started = Date.now();
      await t.call('turn.stop', { sessionId, turnId: 't3' });
      expect((await turnEnds('t3')).status).toBe('cancelled');
      // session/cancel is answered, or the group is killed, within the bound (3 s) and the kill's own bounds.
      expect(Date.now() - started).toBeLessThan(10_000);
    });
  },
);
