import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { InteractionRecord } from '../../src-shared/interaction-model';
import { startTestHost, type TestHost } from './host-fixture';
import { startOpenAIResponsesServer, type ProviderTestServer } from './provider-servers';
import { waitFor } from './wait-for';

/**
 * Sessions on a Codex connection, run by the real `codex app-server` against a scripted Responses
 * server: one server per test file, one host per test (closed after it). Call at the top of a file.
 */
export function useCodexSessions() {
  let server: ProviderTestServer | undefined;
  let host: TestHost | undefined;
  beforeAll(async () => {
    server = await startOpenAIResponsesServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  afterEach(async () => {
    server?.discardQueued();
    await host?.close();
  });

  const fixture = {
    get server(): ProviderTestServer {
      if (server === undefined) throw new Error('The Responses server starts before the first test');
      return server;
    },
    /** The current test's host (started by `codexSession`). */
    get t(): TestHost {
      if (host === undefined) throw new Error('Start a Codex session first');
      return host;
    },
    async codexSession(permissionMode: 'explore' | 'ask' | 'full' = 'ask') {
      host = await startTestHost({ codex: { retries: 0, bounds: { interruptMs: 1000 } } });
      const workspace = mkdtempSync(join(tmpdir(), 'cairn-codex-work-'));
      const { connection } = await host.call('connection.create', {
        name: 'Codex',
        providerType: 'codex',
        baseUrl: fixture.server.baseUrl,
      });
      const { session } = await host.call('session.create', {
        connectionId: connection.connectionId,
        permissionMode,
        workspacePath: workspace,
      });
      return { connectionId: connection.connectionId, sessionId: session.sessionId, workspace };
    },
    async pendingInteraction(sessionId: string): Promise<InteractionRecord> {
      return waitFor(
        async () => (await fixture.t.call('interaction.list', { sessionId, status: 'pending' })).interactions[0],
        { message: 'a pending interaction', timeoutMs: 20_000 },
      );
    },
    /** Codex turns on a loaded machine take seconds; wait up to 20 s for a status. */
    async turnReaches(sessionId: string, turnId: string, statuses: readonly string[]) {
      return waitFor(
        async () => {
          const outcome = await fixture.t.invoke('turn.query', { sessionId, turnId });
          return outcome.ok && statuses.includes(outcome.result.turn.status) ? outcome.result.turn : null;
        },
        { timeoutMs: 20_000, message: `turn ${turnId} to reach ${statuses.join('/')}` },
      );
    },
    async items(sessionId: string) {
      return (await fixture.t.call('transcript.page', { sessionId, limit: 200 })).items;
    },
  };
  return fixture;
}
