import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SummaryRecord } from '../../../src-shared/compaction-model';
import type { TranscriptItem, TranscriptItemKind } from '../../../src-shared/model';
import { ContextAssembler } from '../context/context-assembler';
import { createModelContext } from '../context/model-context';
import { OffloadStore } from '../context/offload';
import type { ProviderTarget } from '../connections/providers';
import { contextBlockOf } from '../context/summary-block';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function transcript() {
  const items: TranscriptItem[] = [];
  const add = (turnId: string, kind: TranscriptItemKind, text: string) => {
    items.push({
      itemId: `i${items.length}`,
      sessionId: 's',
      turnId,
      runId: `r-${turnId}`,
      position: items.length,
      kind,
      text,
      state: 'final',
      data: null,
      createdAt: 0,
    });
  };
  const store = {
    page: (_sessionId: string, before: number | null, limit: number) =>
      items.slice(Math.max(0, (before ?? items.length) - limit), before ?? items.length),
  };
  return { items, add, store };
}

const summary = (lastPosition: number, text = 'They asked for a plan; it was written to plan.md.'): SummaryRecord => ({
  summaryId: 'sum1',
  sessionId: 's',
  firstPosition: 0,
  lastPosition,
  firstItemId: 'i0',
  firstTurn: 1,
  lastTurn: 10,
  text,
  previousSummaryId: null,
  turnId: 'tc',
  runId: 'rc',
  inputTokens: 0,
  outputTokens: 0,
  summaryTokens: 12,
  createdAt: 0,
});

const target = { providerType: 'openai', modelId: 'gpt-4o-mini' } as ProviderTarget;

describe('requests after a compaction', () => {
  it('send the summary and the goal’s objective and first message, not the summarised turns, and fill the meter’s summary', () => {
    const t = transcript();
    for (let turn = 0; turn < 10; turn += 1) {
      t.add(`t${turn}`, 'user_message', `old question ${turn}`);
      t.add(`t${turn}`, 'assistant_message', `old answer ${turn}`);
    }
    t.add('t10', 'user_message', 'new question');
    const dir = mkdtempSync(join(tmpdir(), 'cairn-sum-'));
    dirs.push(dir);
    const context = createModelContext({
      assembler: new ContextAssembler({ transcript: t.store, offload: new OffloadStore(dir) }),
      overrideOf: () => null,
      summaryOf: () => summary(19),
      goalPinsOf: () => ({
        objective: 'Ship the release notes',
        firstMessage: 'Please draft the release notes for 2.0',
      }),
      compactionThreshold: () => 0.8,
    });
    const fitted = context.fit({
      sessionId: 's',
      connectionId: 'c',
      turnId: 't10',
      turnText: 'new question',
      target,
      system: 'You are an agent.',
      tools: [],
    });
    expect(fitted.history.map((message) => message.text)).toEqual(['new question']);
    expect(fitted.contextBlock).toContain('Earlier conversation (summarised, turns 1–10)');
    expect(fitted.contextBlock).toContain('it was written to plan.md');
    expect(fitted.contextBlock).toContain('Ship the release notes');
    expect(fitted.contextBlock).toContain('Please draft the release notes for 2.0');
    expect(fitted.meter.breakdown.summary).toBeGreaterThan(10);
    expect(fitted.compaction).toBeNull();
  });

  it('ask for a compaction at the threshold share of the window', () => {
    const t = transcript();
    for (let turn = 0; turn < 40; turn += 1)
      t.add(`t${turn}`, 'user_message', `question ${turn} ${'words '.repeat(200)}`);
    const dir = mkdtempSync(join(tmpdir(), 'cairn-sum-'));
    dirs.push(dir);
    const fitWith = (threshold: number) =>
      createModelContext({
        assembler: new ContextAssembler({ transcript: t.store, offload: new OffloadStore(dir) }),
        overrideOf: () => ({ contextWindow: 20_000, outputReserve: 2_000 }),
        compactionThreshold: () => threshold,
      }).fit({
        sessionId: 's',
        connectionId: 'c',
        turnId: 't39',
        turnText: 'question 39',
        target,
        system: '',
        tools: [],
      });
    // About 8,000 tokens of 20,000: over a 30 % threshold, under 80 %.
    expect(fitWith(0.3).compaction).toMatchObject({ keepTokens: Math.floor(18_000 * 0.3) });
    expect(fitWith(0.8).compaction).toBeNull();
  });

  it('say when a native agent compacted without a summary text', () => {
    expect(contextBlockOf({ ...summary(3), text: null }, null)).toContain('no summary text is available');
  });
});
