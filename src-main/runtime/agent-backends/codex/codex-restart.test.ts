import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempDataDir } from '../../../testing/host-fixture';
import { connectProtocolClient, type ProtocolClient } from '../../../testing/protocol-client';
import {
  hangReply,
  lastUserText,
  startOpenAIResponsesServer,
  textReply,
  toolCallReply,
  type ProviderTestServer,
} from '../../../testing/provider-servers';
import { startServeProcess, type ServeProcess } from '../../../testing/serve-process';
import { waitFor } from '../../../testing/wait-for';
import { appServerPids } from '../../../testing/codex-processes';
import { processGone } from '../../shell/process-group';

/** A Codex session across a SIGKILLed headless host: the real host process, the real codex binary. */

const TOKEN = 'codex-restart-token';
let server: ProviderTestServer;
const cleanups: Array<() => Promise<void> | void> = [];

beforeAll(async () => {
  server = await startOpenAIResponsesServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(dataDir: string): Promise<{ process: ServeProcess; client: ProtocolClient }> {
  const child = await startServeProcess({ dataDir, token: TOKEN });
  cleanups.push(async () => {
    if (child.child.exitCode === null && child.child.signalCode === null) child.child.kill('SIGKILL');
    await child.exited;
  });
  const client = await connectProtocolClient(child.wsUrl, { token: TOKEN });
  cleanups.push(() => client.close());
  return { process: child, client };
}

async function kill(host: { process: ServeProcess }): Promise<void> {
  host.process.child.kill('SIGKILL');
  await host.process.exited;
}

/** App-servers whose CODEX_HOME is inside `dataDir`. */
function appServers(dataDir: string): number[] {
  return appServerPids(dataDir);
}

async function codexSession(client: ProtocolClient) {
  const workspace = mkdtempSync(join(tmpdir(), 'cairn-codex-work-'));
  const { connection } = await client.call('connection.create', {
    name: 'Codex',
    providerType: 'codex',
    baseUrl: server.baseUrl,
  });
  const { session } = await client.call('session.create', {
    connectionId: connection.connectionId,
    permissionMode: 'ask',
    workspacePath: workspace,
  });
  return session.sessionId;
}

async function turnStatus(client: ProtocolClient, sessionId: string, turnId: string, statuses: readonly string[]) {
  return waitFor(
    async () => {
      const { turn } = await client.call('turn.query', { sessionId, turnId });
      return statuses.includes(turn.status) ? turn : null;
    },
    { timeoutMs: 20_000, message: `turn ${turnId} to reach ${statuses.join('/')}` },
  );
}

describe('Codex sessions across a host restart', { timeout: 90_000 }, () => {
  it('host SIGKILLed mid-turn: interrupted/app_restarted, its app-server gone; Resume continues the same thread', async () => {
    const { dir, cleanup } = tempDataDir();
    cleanups.push(cleanup);
    const first = await serve(dir);
    const sessionId = await codexSession(first.client);
    const base = server.modelCalls().length;
    server.enqueue(hangReply(['Starting the plan']));
    await first.client.call('turn.start', { sessionId, turnId: 't1', text: 'Plan the heron migration' });
    await server.waitForModelCall(base);
    await kill(first);
    await waitFor(() => appServers(dir).length === 0, {
      message: 'the orphaned app-server to exit',
      timeoutMs: 10_000,
    });

    const second = await serve(dir);
    const interrupted = await turnStatus(second.client, sessionId, 't1', ['interrupted']);
    expect(interrupted.latestRun).toMatchObject({ status: 'interrupted', terminalReason: 'app_restarted' });
    server.enqueue(textReply('Resumed and finished the plan.'));
    await second.client.call('turn.resume', { sessionId, turnId: 't1' });
    const done = await turnStatus(second.client, sessionId, 't1', ['completed', 'failed']);
    expect(done.status).toBe('completed');
    const resumed = (await server.waitForModelCall(base + 1)).body;
    expect(lastUserText(resumed)).toContain('ended early (app_restarted)');
    expect(JSON.stringify(resumed)).toContain('Plan the heron migration'); // the same thread's history
    const first1 = server.modelCalls()[base]?.headers['thread-id'];
    expect(first1).toBeTruthy();
    expect(server.modelCalls()[base + 1]?.headers['thread-id']).toBe(first1);
  });

  it('an app-server SIGSTOPped mid-turn outlives the SIGKILLed host: the next host stops it (provably the same) before any second app-server, says so, and Continue resumes the same thread', async () => {
    const { dir, cleanup } = tempDataDir();
    cleanups.push(cleanup);
    const first = await serve(dir);
    const sessionId = await codexSession(first.client);
    const base = server.modelCalls().length;
    server.enqueue(hangReply(['Counting the herons']));
    await first.client.call('turn.start', { sessionId, turnId: 't1', text: 'Count the herons' });
    await server.waitForModelCall(base);
    const [old] = appServers(dir);
    if (old === undefined) throw new Error('no app-server found');
    process.kill(old, 'SIGSTOP');
    cleanups.push(() => {
      if (!processGone(old)) process.kill(old, 'SIGKILL');
    });
    await kill(first);
    expect(processGone(old)).toBe(false); // stuck: it did not see its host go

    const second = await serve(dir);
    await waitFor(() => processGone(old), {
      message: 'the leftover app-server to be stopped by the new host',
      timeoutMs: 20_000,
    });
    await turnStatus(second.client, sessionId, 't1', ['interrupted']);
    const notice = await waitFor(
      async () =>
        (await second.client.call('transcript.page', { sessionId, limit: 100 })).items.find(
          (item) => item.kind === 'notice' && item.text.includes(`pid ${old}`),
        ),
      { message: 'the stop recorded on the session', timeoutMs: 10_000 },
    );
    expect(notice.text).toContain('left running');
    server.enqueue(textReply('Eleven herons.'));
    await second.client.call('turn.resume', { sessionId, turnId: 't1' });
    expect((await turnStatus(second.client, sessionId, 't1', ['completed', 'failed'])).status).toBe('completed');
    const threadIds = server
      .modelCalls()
      .slice(base)
      .map((call) => call.headers['thread-id']);
    expect(threadIds).toHaveLength(2);
    expect(new Set(threadIds).size).toBe(1);
    expect(appServers(dir)).toHaveLength(1);
  });

  it('a question pending across a host restart stays answerable; the answer resumes the thread', async () => {
    const { dir, cleanup } = tempDataDir();
    cleanups.push(cleanup);
    const first = await serve(dir);
    const sessionId = await codexSession(first.client);
    const base = server.modelCalls().length;
    const question = {
      id: 'bird',
      header: 'Bird',
      question: 'Which bird?',
      options: [
        { label: 'Heron', description: '' },
        { label: 'Kestrel', description: '' },
      ],
    };
    server.enqueue(toolCallReply({ id: 'call_q', name: 'request_user_input', input: { questions: [question] } }));
    await first.client.call('turn.start', { sessionId, turnId: 't1', text: 'Pick a bird with me' });
    await waitFor(
      async () => (await first.client.call('interaction.list', { sessionId, status: 'pending' })).interactions[0],
      { message: 'the question', timeoutMs: 15_000 },
    );
    await kill(first);

    const second = await serve(dir);
    const pending = await waitFor(
      async () => (await second.client.call('interaction.list', { sessionId, status: 'pending' })).interactions[0],
      {
        message: 'the question after restart',
        timeoutMs: 20_000,
      },
    );
    server.enqueue(textReply('Kestrel, then.'));
    await second.client.call('interaction.answer', {
      interactionId: pending.interactionId,
      answer: { action: 'accept', answers: { bird: { optionIds: ['option-2'] } } },
    });
    expect((await turnStatus(second.client, sessionId, 't1', ['completed', 'failed'])).status).toBe('completed');
    const next = (await server.waitForModelCall(base + 1)).body;
    expect(lastUserText(next)).toContain('Kestrel');
    expect(JSON.stringify(next)).toContain('Pick a bird with me');
    const page = await second.client.call('transcript.page', { sessionId, limit: 100 });
    expect(page.items.at(-1)?.text).toBe('Kestrel, then.');
  });

  it('an approval pending across a host restart: allowing it resumes the thread with the command it concerned', async () => {
    const { dir, cleanup } = tempDataDir();
    cleanups.push(cleanup);
    const first = await serve(dir);
    const sessionId = await codexSession(first.client);
    const base = server.modelCalls().length;
    const command = 'echo kept > kept.txt';
    server.enqueue(
      toolCallReply({
        id: 'call_1',
        name: 'exec_command',
        input: { cmd: command, sandbox_permissions: 'require_escalated', justification: 'write a file' },
      }),
    );
    await first.client.call('turn.start', { sessionId, turnId: 't1', text: 'Keep a file' });
    await waitFor(
      async () => (await first.client.call('interaction.list', { sessionId, status: 'pending' })).interactions[0],
      { message: 'the approval', timeoutMs: 20_000 },
    );
    await kill(first);

    const second = await serve(dir);
    const pending = await waitFor(
      async () => (await second.client.call('interaction.list', { sessionId, status: 'pending' })).interactions[0],
      {
        message: 'the approval after restart',
        timeoutMs: 20_000,
      },
    );
    expect(pending.request).toMatchObject({ kind: 'permission', preview: { kind: 'command' } });
    server.enqueue(textReply('Carrying on from your approval.'));
    await second.client.call('interaction.answer', {
      interactionId: pending.interactionId,
      answer: { action: 'accept', decision: 'allow_once' },
    });
    expect((await turnStatus(second.client, sessionId, 't1', ['completed', 'failed'])).status).toBe('completed');
    const next = lastUserText((await server.waitForModelCall(base + 1)).body);
    expect(next).toContain('they approved the command');
    expect(next).toContain(command);
  });

  it('a goal cleared with no app-server running, then a restart: its thread goal is cleared when the next app-server resumes the thread', async () => {
    const { dir, cleanup } = tempDataDir();
    cleanups.push(cleanup);
    const first = await serve(dir);
    const sessionId = await codexSession(first.client);
    server.enqueue(textReply('Still counting.'));
    const { goal } = await first.client.call('goal.arm', {
      sessionId,
      objective: 'Count the egrets',
      tokenBudget: null,
      maxIterations: 1,
    });
    await waitFor(
      async () => (await first.client.call('goal.get', { sessionId })).goal?.status === 'iterationLimited',
      {
        message: 'the goal to reach its turn cap',
        timeoutMs: 20_000,
      },
    );
    await kill(first);
    await waitFor(() => appServers(dir).length === 0, {
      message: 'the orphaned app-server to exit',
      timeoutMs: 10_000,
    });

    const second = await serve(dir);
    const limited = (await second.client.call('goal.get', { sessionId })).goal;
    await second.client.call('goal.control', {
      sessionId,
      goalId: goal.goalId,
      expectedRevision: limited?.revision ?? 0,
      action: 'clear',
    });
    // And the host restarts again before any app-server ran: the clear is not forgotten.
    await kill(second);
    const third = await serve(dir);
    server.enqueue(toolCallReply({ id: 'call_get', name: 'get_goal', input: {} }), textReply('No goal left.'));
    await third.client.call('turn.start', { sessionId, turnId: 'after-clear', text: 'Is there a goal?' });
    expect((await turnStatus(third.client, sessionId, 'after-clear', ['completed', 'failed'])).status).toBe(
      'completed',
    );
    // Not the "goal_objective" output Codex's continuation turn left in the history: get_goal's result.
    const answer = server.toolResultFor('call_get')?.content ?? '';
    expect(JSON.parse(answer)).toMatchObject({ goal: null });
  });
});
