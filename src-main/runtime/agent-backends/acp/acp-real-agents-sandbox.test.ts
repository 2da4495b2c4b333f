import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentModel, type AgentModel } from '../../../testing/agent-model';
import { startTestHost, type TestHost } from '../../../testing/host-fixture';
import { textReply, toolCallReply, type ProviderTestServer } from '../../../testing/provider-servers';
import {
  linkRealAgents,
  prepareAgentHome,
  processesIn,
  REAL_AGENTS,
  realAgentsInstalled,
} from '../../../testing/real-acp-agents';
import { waitFor } from '../../../testing/wait-for';
import { detectSandbox } from '../../sandbox/sandbox-availability';

/**
 * The real Claude and OpenCode agents in an Auto session: the whole agent process runs inside the
 * sandbox (bubblewrap, for real), so what its own tools do (Claude's Bash, OpenCode's bash, run in the
 * agent's process, not through Cairn) is contained: a write outside the workspace fails, the fake
 * HOME's ~/.ssh reads empty, another loopback server is out of reach — while the agent still talks to
 * its model through the sandbox's proxy, allowed exactly that endpoint. Switched to Full, the agent
 * starts again outside the wall and the same write works.
 *
 * The model server runs in this process, where the proxy counts it as Cairn's own port (refused
 * whatever the list says), so the connection points at a forwarder in a child process: the endpoint
 * the agent is allowed is the forwarder's port; the model server's own port stays refused. Everything
 * lives under /var/tmp: inside the sandbox /tmp is a private folder.
 */

const installed = realAgentsInstalled();
const availability = detectSandbox('detect');
const linux = process.platform === 'linux';

/** A TCP forwarder in a child process: 127.0.0.1:<its port> → 127.0.0.1:`target`. */
async function startForwarder(target: number): Promise<{ port: number; child: ChildProcess }> {
  const script = `const net = require('net');
const server = net.createServer((c) => { const u = net.connect(${target}, '127.0.0.1'); c.pipe(u); u.pipe(c); c.on('error', () => u.destroy()); u.on('error', () => c.destroy()); });
server.listen(0, '127.0.0.1', () => console.log(server.address().port));`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    child.once('exit', () => reject(new Error('the forwarder exited')));
  });
  return { port, child };
}

/** An HTTP server in a child process on 127.0.0.2 (not the host's own port; not the loopback an agent reaches directly). */
async function startSecondServer(): Promise<{ port: number; child: ChildProcess }> {
  const script = `const server = require('http').createServer((q, r) => r.end('REACHED-SECOND'));
server.listen(0, '127.0.0.2', () => console.log(server.address().port));`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    child.once('exit', () => reject(new Error('the second server exited')));
  });
  return { port, child };
}

/** Everything the tool results of a model call carry, as text (Anthropic's tool_result blocks, OpenAI's tool messages). */
function toolOutputsIn(body: unknown): string {
  return JSON.stringify(body);
}

describe.runIf(linux && installed).each(REAL_AGENTS)(
  'the real $kind agent inside the sandbox (Auto)',
  { timeout: 300_000 },
  (agent) => {
    let t: TestHost;
    let server: ProviderTestServer;
    let other: Server;
    let otherPort: number;
    let forwarder: { port: number; child: ChildProcess };
    let second: { port: number; child: ChildProcess };
    let model: AgentModel;
    let sessionId: string;
    let base: string;
    let home: string;
    let workspace: string;

    beforeAll(async () => {
      expect(availability, 'bubblewrap and socat must be installed (npm test installs them)').toMatchObject({
        available: true,
      });
      model = agentModel();
      server = await agent.startServer(model.answer);
      const modelPort = Number(new URL(server.baseUrl).port);
      forwarder = await startForwarder(modelPort);
      second = await startSecondServer();
      other = createServer((_request, response) => response.end('REACHED-OTHER'));
      await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
      otherPort = (other.address() as AddressInfo).port;
      base = mkdtempSync('/var/tmp/cairn-acp-wall-');
      home = join(base, 'home');
      mkdirSync(join(home, '.ssh'), { recursive: true });
      prepareAgentHome(agent.kind, home);
      writeFileSync(join(home, '.ssh', 'id_ed25519'), 'FAKE-SSH-KEY');
      workspace = join(base, 'workspace');
      mkdirSync(workspace);
      const dataDir = join(base, 'data');
      mkdirSync(dataDir);
      t = await startTestHost({
        dataDir,
        sandbox: 'detect',
        acp: { bounds: { cancelMs: 3_000, startMs: 120_000, requestMs: 120_000 } },
      });
      linkRealAgents(dataDir);
      const baseUrl = server.baseUrl.replace(`:${modelPort}`, `:${forwarder.port}`);
      const { connection } = await t.call('connection.create', {
        name: agent.kind,
        providerType: 'acp',
        baseUrl,
        apiKey: 'test-key',
        acpAgent: { preset: { kind: agent.kind, model: agent.model }, env: { HOME: home } },
      });
      const { session } = await t.call('session.create', {
        connectionId: connection.connectionId,
        permissionMode: 'auto',
        workspacePath: workspace,
      });
      sessionId = session.sessionId;
    }, 120_000);

    afterAll(async () => {
      await t?.close();
      await server?.close();
      forwarder?.child.kill();
      second?.child.kill();
      await new Promise((resolve) => other?.close(resolve));
      if (base !== undefined) rmSync(base, { recursive: true, force: true });
    });

    const turnEnds = (turnId: string) =>
      waitFor(
        async () => {
          const outcome = await t.invoke('turn.query', { sessionId, turnId });
          return outcome.ok && ['completed', 'failed', 'cancelled'].includes(outcome.result.turn.status)
            ? outcome.result.turn
            : null;
        },
        { timeoutMs: 240_000, message: `turn ${turnId} to end` },
      );
    const agentInWall = () =>
      processesIn(workspace).some((pid) => {
        try {
          return readlinkSync(`/proc/${pid}/exe`).endsWith('/bwrap');
        } catch {
          return false; // gone meanwhile
        }
      });
    const probe = (tag: string) =>
      [
        `echo inside-${tag} > ${workspace}/inside-${tag}.txt`,
        `echo x > ${home}/outside-${tag}.txt; echo "outside: $?"`,
        `cat ${home}/.ssh/id_ed25519; echo "ssh: $?"`,
        `curl -s -m 5 http://127.0.0.1:${otherPort}/; echo "other: $?"`,
      ].join('; ');

    it('answers a prompt from inside the wall, through the proxy to its model endpoint only', async () => {
      model.script(textReply('Seven herons on the weir.', 3));
      await t.call('turn.start', { sessionId, turnId: 't1', text: 'How many herons?' });
      const turn = await turnEnds('t1');
      expect(turn.latestRun, JSON.stringify(turn)).toMatchObject({ status: 'completed' });
      const said = (await t.call('transcript.page', { sessionId, limit: 200 })).items.filter(
        (item) => item.turnId === 't1' && item.kind === 'assistant_message',
      );
      expect(said.map((item) => item.text).join(''), JSON.stringify(said)).toContain('Seven herons on the weir.');
      expect(agentInWall(), 'the agent process is bwrap').toBe(true);
    });

    it('its own shell tool, unasked: writes inside the workspace, but not outside; reads no ~/.ssh; reaches no other loopback server', async () => {
      model.script(toolCallReply(agent.shellCall('wall', probe('auto')), 2), textReply('Probed.', 1));
      await t.call('turn.start', { sessionId, turnId: 't2', text: 'Probe the wall' });
      expect((await turnEnds('t2')).latestRun).toMatchObject({ status: 'completed' });
      // Unasked: no approval card (OpenCode's own start-up request to registry.npmjs.org makes a network card).
      const { interactions } = await t.call('interaction.list', { sessionId, status: 'pending' });
      expect(interactions.filter((interaction) => interaction.request.kind !== 'network')).toEqual([]);
      const result = toolOutputsIn(model.calls.at(-1)?.body);
      expect(result).toMatch(/Read-only file system/);
      expect(result).toMatch(/outside: 1/);
      expect(result).not.toMatch(/FAKE-SSH-KEY/);
      expect(result).not.toMatch(/REACHED-OTHER/);
      expect(readFileSync(join(workspace, 'inside-auto.txt'), 'utf8')).toBe('inside-auto\n');
      expect(existsSync(join(home, 'outside-auto.txt'))).toBe(false);
    });

    it('its own shell tool blocked by the proxy makes the card "Allow network to <host>" on the turn; allowed for the session, the running agent\'s retry reaches the server', async () => {
      const fetch = `curl -s -m 5 http://127.0.0.2:${second.port}/; echo " fetch: $?"`;
      model.script(toolCallReply(agent.shellCall('net1', fetch), 2), textReply('Blocked.', 1));
      await t.call('turn.start', { sessionId, turnId: 'tn1', text: 'Fetch it' });
      expect((await turnEnds('tn1')).latestRun).toMatchObject({ status: 'completed' });
      const blocked = toolOutputsIn(model.calls.at(-1)?.body);
      expect(blocked).toMatch(/blocked by the sandbox: network to 127\.0\.0\.2/);
      expect(blocked).not.toMatch(/REACHED-SECOND/);
      const cardOf = async () =>
        (await t.call('interaction.list', { sessionId, status: 'pending' })).interactions.filter(
          (interaction) => interaction.request.kind === 'network' && interaction.request.host === '127.0.0.2',
        );
      const cards = await cardOf();
      expect(cards).toEqual([
        expect.objectContaining({ turnId: 'tn1', request: { kind: 'network', host: '127.0.0.2', port: second.port } }),
      ]);
      await t.call('interaction.answer', {
        interactionId: cards[0]!.interactionId,
        answer: { action: 'accept', network: 'allow_session' },
      });
      // The same agent process (no restart), its proxy now allowing the host.
      model.script(toolCallReply(agent.shellCall('net2', fetch), 2), textReply('Fetched.', 1));
      await t.call('turn.start', { sessionId, turnId: 'tn2', text: 'Fetch it again' });
      expect((await turnEnds('tn2')).latestRun).toMatchObject({ status: 'completed' });
      expect(toolOutputsIn(model.calls.at(-1)?.body)).toMatch(/REACHED-SECOND fetch: 0/);
      expect(await cardOf()).toEqual([]);
    });

    it('switched to Full, starts again outside the wall, resumes its session, and the same write outside works', async () => {
      await t.call('session.configure', { sessionId, permissionMode: 'full' });
      model.script(toolCallReply(agent.shellCall('full', probe('full')), 2), textReply('Probed again.', 1));
      await t.call('turn.start', { sessionId, turnId: 't3', text: 'Probe again' });
      expect((await turnEnds('t3')).latestRun).toMatchObject({ status: 'completed' });
      expect(existsSync(join(home, 'outside-full.txt'))).toBe(true);
      expect(toolOutputsIn(model.calls.at(-1)?.body)).toMatch(/FAKE-SSH-KEY/);
      expect(agentInWall()).toBe(false);
      // Resumed (session/load), not a new agent session with a summary, where the agent reloads
      // (real-acp-agents.ts). Gemini CLI 0.61's session/load fails or succeeds depending on what it wrote
      // before the switch (both seen here), so for it either is right: the notice says which happened.
      const items = (await t.call('transcript.page', { sessionId, limit: 200 })).items;
      if (agent.reloadsSessions)
        expect(items.some((item) => item.text.includes('could not reload its earlier session'))).toBe(false);
    });
  },
);
