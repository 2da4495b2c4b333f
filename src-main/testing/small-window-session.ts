import { countTokens } from '../runtime/context/token-count';
import { startTestHost, type TestHost } from './host-fixture';
import { startOpenAIChatServer, TEST_API_KEY, type ProviderTestServer, type RecordedRequest } from './provider-servers';

/** A small model: 4,000 tokens of window, 500 kept for the answer. */
export const SMALL_WINDOW = 4_000;
export const SMALL_RESERVE = 500;

export interface SmallWindowSession {
  readonly t: TestHost;
  readonly server: ProviderTestServer;
  readonly connectionId: string;
  readonly sessionId: string;
  close(): Promise<void>;
}

/** A host with one session on a provider test server whose model has the small window above. */
export async function openSmallWindowSession(): Promise<SmallWindowSession> {
  const server = await startOpenAIChatServer({ models: ['tiny-model'] });
  const t = await startTestHost({ retryBaseMs: 5 });
  const { connectionId } = (
    await t.call('connection.create', {
      name: 'Tiny',
      providerType: 'openai_compatible',
      baseUrl: server.baseUrl,
      apiKey: TEST_API_KEY,
    })
  ).connection;
  await t.call('context.windows.set', {
    connectionId,
    modelId: 'tiny-model',
    window: { contextWindow: SMALL_WINDOW, outputReserve: SMALL_RESERVE },
    expectedRevision: 0,
  });
  const sessionId = (await t.call('session.create', { connectionId, model: 'tiny-model' })).session.sessionId;
  return {
    t,
    server,
    connectionId,
    sessionId,
    async close() {
      await t.close();
      await server.close();
    },
  };
}

/** Tokens of the whole request body as JSON: more than the provider counts (keys, quotes, escapes, the tool list). */
export const bodyTokens = (request: RecordedRequest): number => countTokens(JSON.stringify(request.body));

/** A long sentence for turn `turn` (about 100 tokens). */
export const riverSentence = (turn: number, what: string): string =>
  `${what} ${turn}: ${'the river bends past the old mill and the stones are cold '.repeat(8)}`;

/** The summary requests compaction sends (answered like any other model request). */
export const isSummaryCall = (request: RecordedRequest): boolean =>
  JSON.stringify(request.body).includes('You summarise the earlier part of a conversation');
