import { afterEach, describe, expect, it } from 'vitest';
import type { ChangeEvent } from '../../src-shared/events';
import type { RunProgress } from '../../src-shared/run-progress';
import { startTestHost, type TestHost } from '../testing/host-fixture';
import {
  continuingModel,
  hangReply,
  openAIErrors,
  startAnthropicServer,
  startOpenAIChatServer,
  streamReply,
  TEST_API_KEY,
  textReply,
  type ProviderTestServer,
} from '../testing/provider-servers';
import { CONTINUE_INSTRUCTION } from '../runtime/agent-backends/builtin/continue-answer';
import { ledgerKinds } from '../testing/record-fingerprint';
import { waitFor } from '../testing/wait-for';

let t: TestHost;
let server: ProviderTestServer;

afterEach(async () => {
  await t.close();
  await server.close();
});

/** A host with one connection to `server` and a session on it. */
async function setUp(
  providerType: 'openai_compatible' | 'anthropic',
  timeouts: { firstTokenTimeoutSeconds?: number; idleTimeoutSeconds?: number } = {},
) {
  t = await startTestHost({ retryBaseMs: 5 });
  const { connection } = await t.call('connection.create', {
    name: 'Local server',
    providerType,
    baseUrl: server.baseUrl,
    apiKey: TEST_API_KEY,
    ...timeouts,
  });
  const model = providerType === 'anthropic' ? 'claude-sonnet-4-5' : 'gpt-4o-mini';
  return (await t.call('session.create', { connectionId: connection.connectionId, model })).session.sessionId;
}

const progressOf = (events: readonly ChangeEvent[]): (RunProgress | null)[] =>
  events.flatMap((event) => (event.kind === 'run.progress' ? [event.progress] : []));

const assistantTexts = async (sessionId: string) =>
  (await t.call('transcript.page', { sessionId, limit: 100 })).items
    .filter((item) => item.kind === 'assistant_message')
    .map((item) => item.text);

describe('showing the wait for a provider', () => {
  it('says the step waits, each retry with its attempt, reason and resume time, and when the answer flows', async () => {
    server = await startOpenAIChatServer({ models: ['gpt-4o-mini'] });
    const sessionId = await setUp('openai_compatible');
    server.enqueue(openAIErrors.rateLimited(0), openAIErrors.serverError(), textReply('Third time lucky.'));
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Try' });
    const turn = await t.waitForTurn(sessionId, 't1', ['completed']);
    // The retries are part of the record, not only of the screen.
    expect(ledgerKinds(t.dataDir, turn.latestRun.runId).filter((kind) => kind === 'provider_retry')).toHaveLength(2);
    const progress = progressOf(t.events);
    expect(
      progress.map((step) =>
        step === null
          ? 'answering'
          : `${step.phase} ${step.attempt}/${step.maxAttempts}${step.phase === 'retrying' ? ` ${step.reason}` : ''}`,
      ),
    ).toEqual([
      'waiting_for_provider 1/4',
      'retrying 2/4 rate_limited',
      'waiting_for_provider 2/4',
      'retrying 3/4 server_error',
      'waiting_for_provider 3/4',
      'answering',
    ]);
    const retry = progress[3];
    expect(retry?.phase === 'retrying' ? retry.resumeAt - retry.since : null).toBe(10); // 5 ms × 2¹
    const progressEvent = t.events.find((event) => event.kind === 'run.progress');
    expect(progressEvent).toMatchObject({ sessionId, turnId: 't1' });
  });
});

describe('timeouts per connection', () => {
  it('fails a run whose provider never sends a token with class provider_timeout, closes the request, and does not retry', async () => {
    server = await startOpenAIChatServer({ models: ['gpt-4o-mini'] });
    const sessionId = await setUp('openai_compatible', { firstTokenTimeoutSeconds: 1 });
    // The server holds the response open and sends nothing.
    server.enqueue(hangReply());
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Hello?' });
    // A client that (re)opens the session meanwhile reads what the run waits on.
    await server.waitForModelCall(0);
    expect((await t.call('session.get', { sessionId })).runProgress).toMatchObject({
      turnId: 't1',
      progress: { phase: 'waiting_for_provider', attempt: 1, maxAttempts: 4 },
    });
    const turn = await t.waitForTurn(sessionId, 't1', ['failed']);
    expect((await t.call('session.get', { sessionId })).runProgress).toBeNull();
    expect(turn.latestRun).toMatchObject({ terminalReason: 'provider_timeout', errorCode: 'provider_timeout' });
    expect(turn.latestRun.errorMessage).toContain('sent nothing for 1 s');
    expect(server.modelCalls()).toHaveLength(1);
    await expect(server.modelCalls()[0]!.outcome).resolves.toBe('client_closed');
  });

  it('fails an answer that stalls mid-stream after the idle timeout, keeps the partial answer, and Retry continues it', async () => {
    server = await startOpenAIChatServer({ models: ['gpt-4o-mini'] });
    const sessionId = await setUp('openai_compatible', { idleTimeoutSeconds: 1 });
    server.enqueue(hangReply(['The first half ']));
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Tell me' });
    const turn = await t.waitForTurn(sessionId, 't1', ['failed']);
    expect(turn.latestRun.errorCode).toBe('provider_timeout');
    expect(turn.latestRun.errorMessage).toContain('nothing arrived for 1 s');
    expect(await assistantTexts(sessionId)).toEqual(['The first half ']);

    server.enqueue(textReply('and the second half.'));
    await t.call('turn.resume', { sessionId, turnId: 't1' });
    await t.waitForTurn(sessionId, 't1', ['completed']);
    expect((await assistantTexts(sessionId)).join('')).toBe('The first half and the second half.');
  });
});

describe('retry in place', () => {
  it('a connection dropped mid-answer fails the turn as unreachable, and the turn can be retried', async () => {
    server = await startOpenAIChatServer({ models: ['gpt-4o-mini'] });
    const sessionId = await setUp('openai_compatible');
    server.enqueue(streamReply({ text: ['Half an ', 'answer'], ending: 'drop' }));
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Go' });
    const failed = await t.waitForTurn(sessionId, 't1', ['failed']);
    expect(failed.latestRun.errorCode).toBe('unreachable');
    // Text had arrived, so it was not retried silently (that would repeat it).
    expect(server.modelCalls()).toHaveLength(1);
    server.enqueue(textReply(' and the rest.'));
    const resumed = await t.call('turn.resume', { sessionId, turnId: 't1' });
    expect(resumed.turn.status).toBe('running');
    await t.waitForTurn(sessionId, 't1', ['completed']);
    expect((await assistantTexts(sessionId)).join('')).toBe('Half an answer and the rest.');
  });
});

describe('Continue after Stop continues the partial answer', () => {
  it('OpenAI-compatible: sends the partial answer as the assistant message, then an explicit instruction to continue', async () => {
    server = await startOpenAIChatServer({ models: ['gpt-4o-mini'] });
    const sessionId = await setUp('openai_compatible');
    server.enqueue(hangReply(['Roses are red, ']));
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Write a poem' });
    await waitFor(async () => (await assistantTexts(sessionId)).join('').includes('Roses'), {
      message: 'the partial answer',
    });
    await t.call('turn.stop', { sessionId });
    server.enqueue(continuingModel('Roses are red, violets are blue.', { honoursPrefill: false }));
    await t.call('turn.resume', { sessionId, turnId: 't1' });
    await t.waitForTurn(sessionId, 't1', ['completed']);
    const body = (await server.waitForModelCall(1)).body as { messages: Array<{ role: string; content: unknown }> };
    expect(body.messages.slice(-3).map((message) => [message.role, JSON.stringify(message.content)])).toEqual([
      ['user', JSON.stringify('Write a poem')],
      ['assistant', JSON.stringify('Roses are red, ')],
      ['user', JSON.stringify(CONTINUE_INSTRUCTION)],
    ]);
    expect(await assistantTexts(sessionId)).toEqual(['Roses are red, ', 'violets are blue.']);
  });

  it('Anthropic: ends the request with the partial answer as an assistant prefill for the model to continue', async () => {
    server = await startAnthropicServer({ models: ['claude-sonnet-4-5'] });
    const sessionId = await setUp('anthropic');
    server.enqueue(hangReply(['Roses are red, ']));
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Write a poem' });
    await waitFor(async () => (await assistantTexts(sessionId)).join('').includes('Roses'), {
      message: 'the partial answer',
    });
    await t.call('turn.stop', { sessionId });
    server.enqueue(continuingModel('Roses are red, violets are blue.', { honoursPrefill: true }));
    await t.call('turn.resume', { sessionId, turnId: 't1' });
    await t.waitForTurn(sessionId, 't1', ['completed']);
    const body = (await server.waitForModelCall(1)).body as {
      messages: Array<{ role: string; content: Array<{ type: string; text?: string }> | string }>;
    };
    const last = body.messages.at(-1);
    expect(last?.role).toBe('assistant');
    expect(JSON.stringify(last?.content)).toContain('Roses are red,');
    expect(JSON.stringify(last?.content)).not.toContain('Roses are red, ');
    expect(JSON.stringify(body.messages)).not.toContain(CONTINUE_INSTRUCTION);
    expect((await assistantTexts(sessionId)).join('').replace(/\s+/g, ' ')).toBe('Roses are red, violets are blue.');
  });
});
