import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentModel, type AgentModel } from '../../../testing/agent-model';
import { startTestHost, type TestHost } from '../../../testing/host-fixture';
import { textReply, toolCallReply, type ProviderTestServer } from '../../../testing/provider-servers';
import { linkRealAgents, REAL_AGENTS, realAgentsInstalled } from '../../../testing/real-acp-agents';
import { waitFor } from '../../../testing/wait-for';

/**
 * What Cairn uses of the real Claude agent beyond a turn (offline, against Cairn's fake Anthropic
 * server): its slash commands in the session's record, its modes and config options as selectors, a
 * chosen model used, and a reason given on Deny reaching its model in the same turn.
 */

const installed = realAgentsInstalled();
const claude = REAL_AGENTS.find((agent) => agent.kind === 'claude');

describe.skipIf(!installed || claude === undefined)(
  'the real Claude agent’s commands, settings and denials (offline)',
  { timeout: 240_000 },
  () => {
    let t: TestHost;
    let server: ProviderTestServer;
    let model: AgentModel;
    let sessionId: string;
    let workspace: string;

    beforeAll(async () => {
      if (claude === undefined) return;
      model = agentModel();
      server = await claude.startServer(model.answer);
      t = await startTestHost({ acp: { bounds: { cancelMs: 3_000, startMs: 120_000, requestMs: 120_000 } } });
      linkRealAgents(t.dataDir);
      const home = mkdtempSync(join(tmpdir(), 'cairn-claude-home-'));
      const { connection } = await t.call('connection.create', {
        name: 'Claude',
        providerType: 'acp',
        baseUrl: server.baseUrl,
        apiKey: 'test-key',
        acpAgent: { preset: { kind: 'claude', model: null }, env: { HOME: home } },
      });
      const { session } = await t.call('session.create', {
        connectionId: connection.connectionId,
        permissionMode: 'ask',
        workspacePath: (workspace = mkdtempSync(join(tmpdir(), 'cairn-claude-work-'))),
      });
      sessionId = session.sessionId;
    }, 120_000);

    afterAll(async () => {
      await t.close();
      await server.close();
    });

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

    it('its commands are kept with the session, and its modes and options are selectors, Manual current in Ask', async () => {
      model.script(textReply('Seven herons.', 1));
      await t.call('turn.start', { sessionId, turnId: 't1', text: 'How many herons?' });
      expect((await turnEnds('t1')).status).toBe('completed');
      const offers = await waitFor(
        async () => {
          const { offers } = await t.call('acp.offers', { sessionId });
          return offers.commands.length > 0 ? offers : null;
        },
        { message: 'Claude’s commands', timeoutMs: 60_000 },
      );
      expect(offers.commands.every((command) => command.name !== '' && !command.name.startsWith('/'))).toBe(true);
      const mode = offers.selectors.find((selector) => selector.kind === 'mode');
      expect(mode).toMatchObject({ current: 'default' });
      expect(mode?.choices.map((choice) => choice.value)).toEqual(expect.arrayContaining(['default', 'plan']));
      expect(offers.selectors.map((selector) => selector.id)).toEqual(expect.arrayContaining(['model', 'effort']));
    });

    it('a model chosen in Cairn is the one the next turn asks for; Bypass permissions is refused in Ask', async () => {
      const refused = await t.invoke('acp.choose', { sessionId, selectorId: 'mode', value: 'bypassPermissions' });
      expect(refused.ok).toBe(false);
      const chosen = await t.call('acp.choose', { sessionId, selectorId: 'model', value: 'haiku' });
      expect(chosen.offers.selectors.find((selector) => selector.id === 'model')?.current).toBe('haiku');
      model.script(textReply('Eight herons.', 1));
      await t.call('turn.start', { sessionId, turnId: 't2', text: 'And now?' });
      expect((await turnEnds('t2')).status).toBe('completed');
      const asked = model.calls.at(-1)?.body;
      expect(typeof asked === 'object' && asked !== null && 'model' in asked ? String(asked.model) : '').toMatch(
        /haiku/,
      );
    });

    it('a reason given on Deny reaches the model in the same turn (steered into it), and the file is not written', async () => {
      if (claude === undefined) return;
      const path = join(workspace, 'heron.txt');
      model.script(toolCallReply(claude.writeCall(path, 'seven herons'), 1), textReply('Understood.', 1));
      const before = model.calls.length;
      await t.call('turn.start', { sessionId, turnId: 't3', text: 'Write heron.txt' });
      const card = await waitFor(
        async () => (await t.call('interaction.list', { sessionId, status: 'pending' })).interactions[0],
        { message: 'the approval card', timeoutMs: 180_000 },
      );
      // Claude takes a reason into its turn: the card does not warn that it may not reach the model.
      expect(card.request).not.toHaveProperty('reasonNote');
      await t.call('interaction.answer', {
        interactionId: card.interactionId,
        answer: { action: 'accept', decision: 'deny', reason: 'herons are counted, never written down' },
      });
      expect((await turnEnds('t3')).status).toBe('completed');
      const later = model.calls.slice(before + 1).map((call) => JSON.stringify(call.body));
      expect(later.some((body) => body.includes('herons are counted, never written down'))).toBe(true);
      expect(existsSync(path)).toBe(false);
    });
  },
);
