import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestHost, type TestHost } from '../../../testing/host-fixture';
import { startOpenAIResponsesServer, textReply, type ProviderTestServer } from '../../../testing/provider-servers';
import { waitFor } from '../../../testing/wait-for';

/** Compact now on a Codex session, run by the real `codex app-server` against a scripted Responses server. */

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

async function turnReaches(sessionId: string, turnId: string, statuses: readonly string[]) {
  return waitFor(
    async () => {
      const outcome = await t.invoke('turn.query', { sessionId, turnId });
      return outcome.ok && statuses.includes(outcome.result.turn.status) ? outcome.result.turn : null;
    },
    { timeoutMs: 30_000, message: `turn ${turnId} to reach ${statuses.join('/')}` },
  );
}

describe('Compact now on a Codex session', { timeout: 90_000 }, () => {
  it('asks Codex to compact its thread (thread/compact/start): Codex asks its model, and the card says Codex compacted its context', async () => {
    t = await startTestHost({ codex: { retries: 0, bounds: { interruptMs: 1000 } } });
    const workspace = mkdtempSync(join(tmpdir(), 'cairn-codex-compact-'));
    const { connection } = await t.call('connection.create', {
      name: 'Codex',
      providerType: 'codex',
      baseUrl: server.baseUrl,
    });
    const { session } = await t.call('session.create', {
      connectionId: connection.connectionId,
      workspacePath: workspace,
    });
    const sessionId = session.sessionId;

    server.enqueue(textReply('The plan is ready.'));
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Make a plan for the garden' });
    expect((await turnReaches(sessionId, 't1', ['completed', 'failed'])).status).toBe('completed');
    const callsBefore = server.modelCalls().length;

    server.enqueue(textReply('Summary: a garden plan was made.'));
    const { turn } = await t.call('session.compact', { sessionId });
    const done = await turnReaches(sessionId, turn.turnId, ['completed', 'failed', 'cancelled']);
    expect(done.status, done.latestRun.errorMessage ?? '').toBe('completed');
    // Codex sent its own compaction request to the model.
    expect(server.modelCalls().length).toBeGreaterThan(callsBefore);
    expect(JSON.stringify(server.modelCalls().at(-1)?.body)).toContain('Make a plan for the garden');
    expect(JSON.stringify(server.modelCalls().at(-1)?.body)).toContain('\\"request_kind\\":\\"compaction\\"');

    const { summaries } = await t.call('session.summaries', { sessionId });
    expect(summaries).toHaveLength(1);
    expect(summaries[0]).toMatchObject({ text: null, turnId: turn.turnId, firstTurn: 1, lastTurn: 1 });
    const { items } = await t.call('transcript.page', { sessionId, limit: 100 });
    const card = items.find((item) => item.kind === 'notice' && item.text === 'Earlier conversation summarised');
    expect(card?.data).toMatchObject({ compaction: { by: 'codex', text: null } });

    // The thread goes on after its compaction.
    server.enqueue(textReply('Tomatoes go in first.'));
    await t.call('turn.start', { sessionId, turnId: 't2', text: 'What goes in first?' });
    expect((await turnReaches(sessionId, 't2', ['completed', 'failed'])).status).toBe('completed');
  });
});
