import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SummaryRecord } from '../../src-shared/compaction-model';
import { OFFLINE_DEMO_CONNECTION_ID } from '../../src-shared/connection-model';
import { countTokens } from '../runtime/context/token-count';
import type { TestHost } from '../testing/host-fixture';
import { waitFor } from '../testing/wait-for';
import {
  hangReply,
  openAIErrors,
  textReply,
  type ProviderTestServer,
  type QueuedReply,
  type RecordedRequest,
} from '../testing/provider-servers';
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

beforeEach(async () => {
  small = await openSmallWindowSession();
  ({ t, server, sessionId } = small);
});
afterEach(async () => {
  await small.close();
});

const systemOf = (request: RecordedRequest) =>
  String((request.body as { messages: Array<{ role: string; content: unknown }> }).messages[0]?.content ?? '');

/** Answers like a model with that window: a context-length error when the request does not fit; summaries when asked for one. */
function windowedModel(
  answer: (request: RecordedRequest) => string,
  summary: (request: RecordedRequest) => QueuedReply = () =>
    textReply('**What was asked**: questions about the river. **Open items**: none.'),
): QueuedReply {
  return (request) => {
    if (bodyTokens(request) > WINDOW - RESERVE) return openAIErrors.contextLengthExceeded();
    if (isSummaryCall(request)) {
      const reply = summary(request);
      return typeof reply === 'function' ? reply(request) : reply;
    }
    return textReply(answer(request), 2, { inputTokens: bodyTokens(request), outputTokens: 90 });
  };
}

/** Every transcript item of the session, oldest first. */
async function allItems() {
  const items = [];
  let before: number | undefined;
  for (;;) {
    const page = await t.call('transcript.page', {
      sessionId,
      limit: 500,
      ...(before === undefined ? {} : { before }),
    });
    items.unshift(...page.items);
    if (page.nextBefore === null) return items;
    before = page.nextBefore;
  }
}

async function runTurn(turnId: string, text: string) {
  await t.call('turn.start', { sessionId, turnId, text });
  return t.waitForTurn(sessionId, turnId, ['completed', 'failed', 'cancelled']);
}

describe('compaction with a small model window', () => {
  it('runs 300 turns, ten times the window, summarising older turns: every request fits and later ones carry the summary', async () => {
    let total = 0;
    for (let index = 0; index < 700; index += 1) {
      server.enqueue(
        windowedModel((request) =>
          sentence(
            Number(
              /Question (\d+)/.exec(JSON.stringify((request.body as { messages: unknown[] }).messages.at(-1)))?.[1] ??
                -1,
            ),
            'Answer',
          ),
        ),
      );
    }
    for (let turn = 0; turn < 300; turn += 1) {
      const text = sentence(turn, 'Question');
      total += countTokens(text) + countTokens(sentence(turn, 'Answer'));
      const done = await runTurn(`t${turn}`, text);
      expect(done.status, `turn ${turn}: ${done.latestRun.errorMessage ?? ''}`).toBe('completed');
    }
    expect(total).toBeGreaterThan(10 * WINDOW);
    const calls = server.modelCalls();
    const summaryCalls = calls.filter(isSummaryCall);
    const turnCalls = calls.filter((call) => !isSummaryCall(call));
    expect(turnCalls).toHaveLength(300);
    expect(summaryCalls.length).toBeGreaterThan(5);
    for (const call of calls) expect(bodyTokens(call)).toBeLessThanOrEqual(WINDOW - RESERVE);
    // Once the first summary exists, every request carries it (a chained summary folds the earlier one in).
    const firstSummary = calls.indexOf(summaryCalls[0] as RecordedRequest);
    for (const call of calls.slice(firstSummary + 1).filter((request) => !isSummaryCall(request))) {
      expect(systemOf(call)).toContain('Earlier conversation (summarised, turns 1–');
      expect(systemOf(call)).toContain('questions about the river');
    }
    expect(JSON.stringify((summaryCalls.at(-1) as RecordedRequest).body)).toContain('Earlier summary (fold it in)');
    const last = calls.at(-1)?.body as { messages: Array<{ role: string; content: unknown }> };
    expect(JSON.stringify(last.messages.at(-1))).toContain('Question 299');
    expect(JSON.stringify(last.messages)).toContain('Answer 298');

    const { summaries } = await t.call('session.summaries', { sessionId });
    expect(summaries.length).toBe(summaryCalls.length);
    const newest = summaries.at(-1);
    expect(newest).toMatchObject({ firstPosition: 0, firstTurn: 1, previousSummaryId: summaries.at(-2)?.summaryId });
    expect(newest?.lastTurn).toBeGreaterThan(250);
    // The transcript keeps every message: 300 questions, 300 answers, and a card per summary.
    const items = await allItems();
    expect(items.filter((item) => item.kind === 'user_message')).toHaveLength(300);
    expect(
      items.filter((item) => item.kind === 'notice' && item.text === 'Earlier conversation summarised'),
    ).toHaveLength(summaries.length);
    const { meter } = await t.call('context.meter', { sessionId });
    expect(meter?.breakdown.summary).toBeGreaterThan(0);
    expect(meter?.used).toBeLessThanOrEqual(WINDOW - RESERVE);
  }, 180_000);

  it('retries a summary call that fails once (a 500), and the turn completes with the summary sent', async () => {
    await t.call('context.compaction.set', { threshold: 0.3 });
    let summaryCalls = 0;
    for (let index = 0; index < 40; index += 1) {
      server.enqueue(
        windowedModel(
          () => sentence(0, 'Answer'),
          () => {
            summaryCalls += 1;
            return summaryCalls === 1 ? openAIErrors.serverError() : textReply('**What was asked**: about the weir.');
          },
        ),
      );
    }
    for (let turn = 0; turn < 12 && summaryCalls < 2; turn += 1) {
      const done = await runTurn(`t${turn}`, sentence(turn, 'Question'));
      expect(done.status, done.latestRun.errorMessage ?? '').toBe('completed');
    }
    expect(summaryCalls).toBe(2);
    const { summaries } = await t.call('session.summaries', { sessionId });
    expect(summaries).toHaveLength(1);
    expect(systemOf(server.modelCalls().at(-1) as RecordedRequest)).toContain('about the weir');
  }, 60_000);

  it('survives a failed summary: the turn says why, nothing is lost, and the next turn compacts', async () => {
    await t.call('context.compaction.set', { threshold: 0.3 });
    // Every attempt of the first compaction fails (the first try and its three retries).
    let failuresLeft = 4;
    for (let index = 0; index < 40; index += 1) {
      server.enqueue(
        windowedModel(
          () => sentence(0, 'Answer'),
          () => {
            if (failuresLeft === 0) return textReply('**What was asked**: about the mill.');
            failuresLeft -= 1;
            return openAIErrors.serverError();
          },
        ),
      );
    }
    let failed: Awaited<ReturnType<typeof runTurn>> | null = null;
    let turn = 0;
    for (; turn < 12 && failed === null; turn += 1) {
      const done = await runTurn(`t${turn}`, sentence(turn, 'Question'));
      if (done.status === 'failed') failed = done;
    }
    expect(failuresLeft).toBe(0);
    expect(failed?.latestRun).toMatchObject({ terminalReason: 'compaction_failed', errorCode: 'compaction_failed' });
    expect(failed?.latestRun.errorMessage).toMatch(/could not summarise the earlier conversation/);
    expect((await t.call('session.summaries', { sessionId })).summaries).toHaveLength(0);
    const before = await t.call('transcript.page', { sessionId, limit: 500 });
    expect(before.items.filter((item) => item.kind === 'user_message')).toHaveLength(turn);

    const next = await runTurn('after', sentence(99, 'Question'));
    expect(next.status).toBe('completed');
    const { summaries } = await t.call('session.summaries', { sessionId });
    expect(summaries).toHaveLength(1);
    expect(summaries[0]?.text).toContain('about the mill');
    expect(systemOf(server.modelCalls().at(-1) as RecordedRequest)).toContain('about the mill');
  }, 60_000);

  it('compacts on request as a turn of its own: recorded, its usage counted, and the next request sends the summary instead of the old turns', async () => {
    for (let turn = 0; turn < 3; turn += 1) {
      server.enqueue(textReply(sentence(turn, 'Answer')));
      expect((await runTurn(`t${turn}`, sentence(turn, 'Question'))).status).toBe('completed');
    }
    server.enqueue(
      textReply('**What was asked**: three questions about the river.', 2, { inputTokens: 700, outputTokens: 40 }),
    );
    const { turn } = await t.call('session.compact', { sessionId });
    expect(turn.origin).toBe('compaction');
    const done = await t.waitForTurn(sessionId, turn.turnId, ['completed', 'failed', 'cancelled']);
    expect(done.status, done.latestRun.errorMessage ?? '').toBe('completed');
    expect(done.usage).toMatchObject({ inputTokens: 700, outputTokens: 40 });
    const usage = await t.call('usage.summary', { by: 'session', sessionId });
    expect(usage.totals.inputTokens).toBeGreaterThanOrEqual(700);

    const { summaries } = await t.call('session.summaries', { sessionId });
    expect(summaries).toHaveLength(1);
    expect(summaries[0]).toMatchObject({
      firstTurn: 1,
      lastTurn: 3,
      turnId: turn.turnId,
      inputTokens: 700,
      outputTokens: 40,
    });
    const page = await t.call('transcript.page', { sessionId, limit: 100 });
    const card = page.items.find((item) => item.kind === 'notice' && item.text === 'Earlier conversation summarised');
    expect(card?.data).toMatchObject({
      compaction: {
        firstTurn: 1,
        lastTurn: 3,
        text: '**What was asked**: three questions about the river.',
        by: 'cairn',
      },
    });
    expect(page.items.filter((item) => item.kind === 'user_message')).toHaveLength(3);
    // Everything is summarised: a second Compact now has nothing to do.
    const nothing = await t.invoke('session.compact', { sessionId });
    expect(nothing.ok ? null : nothing.error.code).toBe('operation_unavailable');

    server.enqueue(textReply('Noted.'));
    expect((await runTurn('after', 'What next?')).status).toBe('completed');
    const sent = server.modelCalls().at(-1) as RecordedRequest;
    expect(systemOf(sent)).toContain('three questions about the river');
    expect(JSON.stringify(sent.body)).not.toContain('Question 0:');
    expect(JSON.stringify((sent.body as { messages: unknown[] }).messages.at(-1))).toContain('What next?');
    const again = await t.invoke('session.compact', { sessionId: 'missing' });
    expect(again.ok ? null : again.error.code).toBe('not_found');
  });

  it('stops a compaction promptly and writes nothing', async () => {
    server.enqueue(textReply('First answer.'));
    expect((await runTurn('t0', 'First question')).status).toBe('completed');
    server.enqueue(hangReply());
    const { turn } = await t.call('session.compact', { sessionId });
    await waitFor(() => server.modelCalls().length === 2);
    const started = Date.now();
    const stopped = await t.call('turn.stop', { sessionId, turnId: turn.turnId });
    expect(stopped.outcome).toBe('stopped');
    expect(Date.now() - started).toBeLessThan(2_000);
    expect((await t.waitForTurn(sessionId, turn.turnId, ['cancelled'])).status).toBe('cancelled');
    expect((await t.call('session.summaries', { sessionId })).summaries).toHaveLength(0);
    // Nothing was lost: the next Compact now can run.
    server.enqueue(textReply('**What was asked**: a first question.'));
    const retry = await t.call('session.compact', { sessionId });
    expect((await t.waitForTurn(sessionId, retry.turn.turnId, ['completed', 'failed'])).status).toBe('completed');
    expect((await t.call('session.summaries', { sessionId })).summaries).toHaveLength(1);
  });
});

describe('compaction in the Offline demo', () => {
  it('writes a deterministic summary, and a second one chains: it covers the first one’s range and folds its text in', async () => {
    const demo = (await t.call('session.create', { connectionId: OFFLINE_DEMO_CONNECTION_ID })).session.sessionId;
    const turnIn = async (turnId: string, text: string) => {
      await t.call('turn.start', { sessionId: demo, turnId, text });
      expect((await t.waitForTurn(demo, turnId, ['completed', 'failed'])).status).toBe('completed');
    };
    const compact = async () => {
      const { turn } = await t.call('session.compact', { sessionId: demo });
      expect((await t.waitForTurn(demo, turn.turnId, ['completed', 'failed'])).status).toBe('completed');
    };
    await turnIn('a', 'Plan the garden');
    await turnIn('b', 'Add tomatoes');
    await compact();
    await turnIn('c', 'And basil');
    await compact();
    const { summaries } = await t.call('session.summaries', { sessionId: demo });
    expect(summaries).toHaveLength(2);
    const [first, second] = summaries as [SummaryRecord, SummaryRecord];
    expect(first).toMatchObject({ firstTurn: 1, lastTurn: 2, previousSummaryId: null, inputTokens: 0 });
    expect(first.text).toContain('“Plan the garden”; “Add tomatoes”');
    expect(second).toMatchObject({
      firstPosition: first.firstPosition,
      firstItemId: first.firstItemId,
      firstTurn: 1,
      lastTurn: 3,
      previousSummaryId: first.summaryId,
    });
    expect(second.lastPosition).toBeGreaterThan(first.lastPosition);
    expect(second.text).toContain('**Before that**');
    expect(second.text).toContain('“And basil”');
  });
});
