import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentModel, type AgentModel } from '../../../testing/agent-model';
import { startTestHost, type TestHost } from '../../../testing/host-fixture';
import { textReply, type ProviderTestServer } from '../../../testing/provider-servers';
import { assistantTextsIn, linkRealAgents, REAL_AGENTS, realAgentsInstalled } from '../../../testing/real-acp-agents';
import { waitFor } from '../../../testing/wait-for';
import { earlierAgentSession } from '../../../testing/earlier-agent-session';

/**
 * The real Claude agent's own sessions in Cairn (offline, against Cairn's fake Anthropic server):
 * Import — a session made earlier by the agent itself, outside Cairn (its own config dir), is listed
 * for its folder, imported into a fresh Cairn data directory with its history, and continued there in
 * the same agent session; Fork — Regenerate of its last turn goes on in a fork of the agent's session
 * made at the answer before it.
 */

const installed = realAgentsInstalled();
const claude = REAL_AGENTS.find((agent) => agent.kind === 'claude');

describe.skipIf(!installed || claude === undefined)(
  'import of the real Claude agent’s sessions (offline)',
  { timeout: 300_000 },
  () => {
    let t: TestHost;
    let server: ProviderTestServer;
    let model: AgentModel;
    let workspace: string;
    let connectionId: string;
    let earlierId: string;
    let importedId: string;

    beforeAll(async () => {
      if (claude === undefined) return;
      model = agentModel();
      server = await claude.startServer(model.answer);
      const home = mkdtempSync(join(tmpdir(), 'cairn-claude-home-'));
      workspace = mkdtempSync(join(tmpdir(), 'cairn-claude-work-'));
      // The earlier session: the Claude agent driven directly over ACP, as another editor would.
      model.script(textReply('Seven herons.', 1));
      earlierId = await earlierAgentSession(
        'claude',
        { home, baseUrl: server.baseUrl, apiKey: 'test-key' },
        workspace,
        'How many herons are on the pond?',
      );

      t = await startTestHost({ acp: { bounds: { cancelMs: 3_000, startMs: 120_000, requestMs: 120_000 } } });
      linkRealAgents(t.dataDir);
      const { connection } = await t.call('connection.create', {
        name: 'Claude',
        providerType: 'acp',
        baseUrl: server.baseUrl,
        apiKey: 'test-key',
        acpAgent: { preset: { kind: 'claude', model: null }, env: { HOME: home } },
      });
      connectionId = connection.connectionId;
    }, 240_000);

    afterAll(async () => {
      await t?.close();
      await server?.close();
    });

    it('lists the agent’s session of the folder, imports it with its history, and the next turn continues it', async () => {
      const listed = await t.call('acp.sessions', { connectionId, cwd: workspace });
      expect(listed).toMatchObject({ offered: true, agent: 'Claude Agent' });
      const earlier = listed.sessions.find((session) => session.acpSessionId === earlierId);
      expect(earlier).toMatchObject({ cwd: workspace, importedAs: null });
      expect(earlier?.updatedAt).toEqual(expect.any(Number));
      expect(earlier?.title).toMatch(/heron/i);

      const imported = await t.call('acp.import', { connectionId, acpSessionId: earlierId, cwd: workspace });
      expect(imported.created).toBe(true);
      expect(imported.session).toMatchObject({ connectionId, workspacePath: workspace });
      const sessionId = (importedId = imported.session.sessionId);
      const { transcript } = await t.call('session.get', { sessionId });
      const said = transcript.items.map((item) => [item.kind, item.text.trim()]);
      expect(said).toEqual(
        expect.arrayContaining([
          ['user_message', 'How many herons are on the pond?'],
          ['assistant_message', 'Seven herons.'],
        ]),
      );

      // Importing it again opens the same Cairn session; the list says so.
      const again = await t.call('acp.import', { connectionId, acpSessionId: earlierId, cwd: workspace });
      expect(again).toMatchObject({ created: false, session: { sessionId } });
      const relisted = await t.call('acp.sessions', { connectionId, cwd: workspace });
      expect(relisted.sessions.find((session) => session.acpSessionId === earlierId)?.importedAs).toBe(sessionId);

      // The next message continues the same agent session: the model sees the earlier turn as the agent's own history.
      model.script(textReply('Still seven.', 1));
      const before = model.calls.length;
      await t.call('turn.start', { sessionId, turnId: 't2', text: 'And now?' });
      const turn = await waitFor(
        async () => {
          const outcome = await t.invoke('turn.query', { sessionId, turnId: 't2' });
          return outcome.ok && ['completed', 'failed', 'cancelled'].includes(outcome.result.turn.status)
            ? outcome.result.turn
            : null;
        },
        { timeoutMs: 240_000, message: 'the continued turn to end' },
      );
      expect(turn.status).toBe('completed');
      const asked = model.calls.slice(before).at(-1);
      expect(asked).toBeDefined();
      if (asked === undefined) return;
      expect(assistantTextsIn(asked)).toContain('Seven herons.');
      expect(JSON.stringify(asked.body)).toContain('How many herons are on the pond?');
      const after = await t.call('session.get', { sessionId });
      // Reloaded, not a new agent session given a summary.
      expect(after.transcript.items.some((item) => item.text.includes('Cairn: '))).toBe(false);
      expect(
        after.transcript.items.some((item) => item.kind === 'assistant_message' && item.text.includes('Still seven.')),
      ).toBe(true);
    });

    it('Regenerate of the last turn goes on in a fork of the agent’s session made at the answer before it, without the later turn', async () => {
      const sessionId = importedId;
      const { items } = await t.call('transcript.page', { sessionId, limit: 200 });
      const answer = items.filter((item) => item.turnId === 't2' && item.kind === 'assistant_message').at(-1);
      if (answer === undefined) throw new Error('no answer to regenerate');
      model.script(textReply('Seven, counted again.', 1));
      const before = model.calls.length;
      const branched = await t.call('session.branch', {
        sessionId,
        atItemId: answer.itemId,
        mode: 'regenerate',
        requestId: 'fork-1',
      });
      const branch = branched.session.sessionId;
      const turnId = branched.turn?.turnId ?? '';
      const done = await waitFor(
        async () => {
          const outcome = await t.invoke('turn.query', { sessionId: branch, turnId });
          return outcome.ok && ['completed', 'failed', 'cancelled'].includes(outcome.result.turn.status)
            ? outcome.result.turn
            : null;
        },
        { timeoutMs: 240_000, message: 'the branch’s turn to end' },
      );
      expect(done.status).toBe('completed');
      const branchItems = (await t.call('transcript.page', { sessionId: branch, limit: 200 })).items.filter(
        (item) => item.turnId === turnId,
      );
      expect(branchItems.find((item) => item.kind === 'reasoning')?.text).toMatch(
        /^Cairn: this branch goes on in a fork of the agent’s own session \(session\/fork\)/,
      );
      const asked = model.calls.slice(before).at(-1);
      if (asked === undefined) throw new Error('the model was not asked');
      // The fork holds the first exchange as the agent's own history, not the regenerated turn's answer, and no summary.
      expect(assistantTextsIn(asked)).toContain('Seven herons.');
      expect(assistantTextsIn(asked)).not.toContain('Still seven.');
      expect(JSON.stringify(asked.body)).not.toContain('this conversation began before this agent session');
      const bound = await t.call('session.get', { sessionId: branch });
      expect(bound.transcript.items.some((item) => item.text.includes('Seven, counted again.'))).toBe(true);
    });
  },
);
