import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { countTokens } from '../runtime/context/token-count';
import type { TestHost } from '../testing/host-fixture';
import { openAIErrors, textReply, type ProviderTestServer, type RecordedRequest } from '../testing/provider-servers';
import {
  bodyTokens,
  isSummaryCall,
  openSmallWindowSession,
  riverSentence as sentence,
  SMALL_RESERVE as RESERVE,
  SMALL_WINDOW as WINDOW,
  type SmallWindowSession,
} from '../testing/small-window-session';

let small: SmallWindowSession;
let t: TestHost;
let server: ProviderTestServer;
let sessionId: string;
let connectionId: string;

beforeEach(async () => {
  small = await openSmallWindowSession();
  ({ t, server, sessionId, connectionId } = small);
});
afterEach(async () => {
  await small.close();
});

/** Answers like a model with that window: a context-length error when the request does not fit. */
function windowedReply(turn: number) {
  return (request: RecordedRequest) =>
    bodyTokens(request) > WINDOW - RESERVE
      ? openAIErrors.contextLengthExceeded()
      : textReply(sentence(turn, 'Answer'), 2, { inputTokens: bodyTokens(request), outputTokens: 90 });
}

/** Takes the summary requests in between and the turn's own request, in order. */
function windowedReplies(turn: number) {
  const summary = (request: RecordedRequest) =>
    textReply(`Summary before turn ${turn}.`, 1, { inputTokens: bodyTokens(request), outputTokens: 10 });
  const answer = windowedReply(turn);
  const reply = (request: RecordedRequest) => {
    if (isSummaryCall(request)) {
      server.enqueue(reply);
      return summary(request);
    }
    return answer(request);
  };
  return reply;
}

describe('a long session within a small model window', () => {
  it('runs 300 turns, ten times the window in all, with every request within the window', async () => {
    let total = 0;
    for (let turn = 0; turn < 300; turn += 1) {
      server.enqueue(windowedReplies(turn));
      const text = sentence(turn, 'Question');
      total += countTokens(text) + countTokens(sentence(turn, 'Answer'));
      await t.call('turn.start', { sessionId, turnId: `t${turn}`, text });
      const done = await t.waitForTurn(sessionId, `t${turn}`, ['completed', 'failed']);
      expect(done.status, `turn ${turn}: ${done.latestRun.errorMessage ?? ''}`).toBe('completed');
    }
    expect(total).toBeGreaterThan(10 * WINDOW);
    const all = server.modelCalls();
    for (const call of all) expect(bodyTokens(call)).toBeLessThanOrEqual(WINDOW - RESERVE);
    const calls = all.filter((call) => !isSummaryCall(call));
    expect(calls).toHaveLength(300);
    // The last request still carries the recent turns and the turn's own question.
    const last = calls.at(-1)?.body as { messages: Array<{ role: string; content: unknown }> };
    expect(JSON.stringify(last.messages.at(-1))).toContain('Question 299');
    expect(JSON.stringify(last.messages)).toContain('Answer 298');
    expect(JSON.stringify(last.messages)).not.toContain('Question 0:');
    // The whole transcript is kept.
    const page = await t.call('transcript.page', { sessionId, limit: 10 });
    expect(page.nextBefore).not.toBeNull();

    const { meter } = await t.call('context.meter', { sessionId });
    expect(meter).toMatchObject({
      contextWindow: WINDOW,
      outputReserve: RESERVE,
      windowSource: 'override',
      trimmed: false,
      modelId: 'tiny-model',
    });
    expect(meter?.used).toBeLessThanOrEqual(WINDOW - RESERVE);
    expect(meter?.used).toBeGreaterThan((WINDOW - RESERVE) / 2);
    // Older turns were summarised rather than left out.
    expect(meter?.breakdown.summary).toBeGreaterThan(0);
    expect(t.events.some((event) => event.kind === 'context.changed' && event.sessionId === sessionId)).toBe(true);
  }, 120_000);

  it('keeps window overrides revisioned, refuses a stale revision and a reserve larger than the window', async () => {
    const before = await t.call('context.windows.get', {});
    expect(before.overrides).toEqual([
      { connectionId, modelId: 'tiny-model', contextWindow: WINDOW, outputReserve: RESERVE },
    ]);
    const stale = await t.invoke('context.windows.set', {
      connectionId,
      modelId: 'tiny-model',
      window: null,
      expectedRevision: 0,
    });
    expect(stale.ok ? null : stale.error.code).toBe('revision_conflict');
    const wrong = await t.invoke('context.windows.set', {
      connectionId,
      modelId: 'tiny-model',
      window: { contextWindow: 2_000, outputReserve: 2_000 },
    });
    expect(wrong.ok ? null : wrong.error.code).toBe('invalid_input');
    const cleared = await t.call('context.windows.set', {
      connectionId,
      modelId: 'tiny-model',
      window: null,
      expectedRevision: before.revision,
    });
    expect(cleared).toEqual({ revision: before.revision + 1, overrides: [] });
  });
});
