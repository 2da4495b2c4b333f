import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runningTestAgents, testAgentCommand } from '../../../testing/acp-test-agent-launch';
import { tempDataDir } from '../../../testing/host-fixture';
import type { ProtocolClient } from '../../../testing/protocol-client';
import type { ServeProcess } from '../../../testing/serve-process';
import { serveWithClient } from '../../../testing/serve-with-client';
import { waitFor } from '../../../testing/wait-for';

/** An ACP session across a SIGKILLed headless host: the real host process, the ACP test agent. */

const TOKEN = 'acp-restart-token';
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(dataDir: string): Promise<{ process: ServeProcess; client: ProtocolClient }> {
  const { server, client } = await serveWithClient(dataDir, TOKEN, cleanups);
  return { process: server, client };
}

async function kill(host: { process: ServeProcess }): Promise<void> {
  host.process.child.kill('SIGKILL');
  await host.process.exited;
}

async function acpSession(client: ProtocolClient, options: { load?: boolean } = {}) {
  const workspace = mkdtempSync(join(tmpdir(), 'cairn-acp-work-'));
  const state = mkdtempSync(join(tmpdir(), 'cairn-acp-agent-'));
  const { connection } = await client.call('connection.create', {
    name: 'Test agent',
    providerType: 'acp',
    acpAgent: testAgentCommand(state, options),
  });
  const { session } = await client.call('session.create', {
    connectionId: connection.connectionId,
    permissionMode: 'ask',
    workspacePath: workspace,
  });
  return { sessionId: session.sessionId, workspace, state };
}

async function turnStatus(client: ProtocolClient, sessionId: string, turnId: string, statuses: readonly string[]) {
  return waitFor(
    async () => {
      const { turn } = await client.call('turn.query', { sessionId, turnId });
      return statuses.includes(turn.status) ? turn : null;
    },
    { timeoutMs: 60_000, message: `turn ${turnId} to reach ${statuses.join('/')}` },
  );
}

const texts = async (client: ProtocolClient, sessionId: string) =>
  (await client.call('transcript.page', { sessionId, limit: 200 })).items.map((item) => item.text);

describe('ACP sessions across a host restart', { timeout: 240_000 }, () => {
  it('host SIGKILLed mid-turn: interrupted, its agent gone; Continue loads the same agent session (session/load), its replay not shown again', async () => {
    const { dir, cleanup } = tempDataDir();
    cleanups.push(cleanup);
    const first = await serve(dir);
    const { sessionId, state } = await acpSession(first.client);
    await first.client.call('turn.start', { sessionId, turnId: 't1', text: 'slow 1000 50' });
    await waitFor(async () => (await texts(first.client, sessionId)).some((text) => text.includes('chunk-2')), {
      message: 'the first chunks',
      timeoutMs: 60_000,
    });
    await kill(first);
    await waitFor(() => runningTestAgents(state).length === 0, {
      message: 'the orphaned agent to exit',
      timeoutMs: 10_000,
    });

    const second = await serve(dir);
    const interrupted = await turnStatus(second.client, sessionId, 't1', ['interrupted']);
    expect(interrupted.latestRun).toMatchObject({ status: 'interrupted', terminalReason: 'app_restarted' });
    await second.client.call('turn.resume', { sessionId, turnId: 't1' });
    expect((await turnStatus(second.client, sessionId, 't1', ['completed', 'failed'])).status).toBe('completed');
    await second.client.call('turn.start', { sessionId, turnId: 't2', text: 'recall' });
    expect((await turnStatus(second.client, sessionId, 't2', ['completed', 'failed'])).status).toBe('completed');
    const shown = await texts(second.client, sessionId);
    expect(shown.at(-1)).toBe('I remember: slow 1000 50');
    expect(shown.filter((text) => text.includes('chunk-0'))).toHaveLength(1);
    expect(
      shown.some((text) => text.includes('Your previous attempt at this request ended early (app_restarted).')),
    ).toBe(true);
  });

  it('a permission pending across a host restart stays answerable; allowed, the agent is told and writes through Cairn', async () => {
    const { dir, cleanup } = tempDataDir();
    cleanups.push(cleanup);
    const first = await serve(dir);
    const { sessionId, workspace } = await acpSession(first.client);
    await first.client.call('turn.start', { sessionId, turnId: 't1', text: 'write kept.txt kept across' });
    await waitFor(
      async () => (await first.client.call('interaction.list', { sessionId, status: 'pending' })).interactions[0],
      { message: 'the approval', timeoutMs: 60_000 },
    );
    await kill(first);

    const second = await serve(dir);
    const pending = await waitFor(
      async () => (await second.client.call('interaction.list', { sessionId, status: 'pending' })).interactions[0],
      {
        message: 'the approval after restart',
        timeoutMs: 60_000,
      },
    );
    expect(pending.request).toMatchObject({ kind: 'permission', summary: 'Write kept.txt' });
    await second.client.call('interaction.answer', {
      interactionId: pending.interactionId,
      answer: { action: 'accept', decision: 'allow_once' },
    });
    expect((await turnStatus(second.client, sessionId, 't1', ['completed', 'failed'])).status).toBe('completed');
    expect(readFileSync(join(workspace, 'kept.txt'), 'utf8')).toBe('kept across');
    expect((await texts(second.client, sessionId)).at(-1)).toBe('Wrote kept.txt after the restart.');
  });

  it('an agent that cannot load sessions: after a restart a new agent session starts, announced, with a summary of Cairn’s record', async () => {
    const { dir, cleanup } = tempDataDir();
    cleanups.push(cleanup);
    const first = await serve(dir);
    const { sessionId } = await acpSession(first.client, { load: false });
    await first.client.call('turn.start', { sessionId, turnId: 't1', text: 'text The heron count is seven' });
    expect((await turnStatus(first.client, sessionId, 't1', ['completed', 'failed'])).status).toBe('completed');
    await kill(first);

    const second = await serve(dir);
    await second.client.call('turn.start', { sessionId, turnId: 't2', text: 'recall' });
    expect((await turnStatus(second.client, sessionId, 't2', ['completed', 'failed'])).status).toBe('completed');
    const shown = await texts(second.client, sessionId);
    expect(
      shown.some((text) =>
        text.startsWith('Cairn: the agent could not reload its earlier session, so a new agent session started'),
      ),
    ).toBe(true);
    expect(shown.some((text) => text.includes('Person: text The heron count is seven'))).toBe(true);
    expect(shown.at(-1)).toMatch(
      /^\(Cairn: your earlier session could not be reloaded\. .*Person: text The heron count is seven.*You: The heron count is seven\)I remember nothing\.$/s,
    );
    expect(shown.at(-1)).not.toContain('Person: recall');
  });
});
