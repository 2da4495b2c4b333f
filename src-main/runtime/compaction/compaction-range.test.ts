import { describe, expect, it } from 'vitest';
import { cleanBoundaries, keptStart, type RangeEntry } from './compaction-range';

const user = (tokens = 10): RangeEntry => ({ role: 'user', toolCallId: null, tokens });
const assistant = (tokens = 10): RangeEntry => ({ role: 'assistant', toolCallId: null, tokens });
const call = (id: string, tokens = 10): RangeEntry => ({ role: 'tool_call', toolCallId: id, tokens });
const result = (id: string, tokens = 10): RangeEntry => ({ role: 'tool_result', toolCallId: id, tokens });

describe('the compaction boundary', () => {
  it('keeps the newest turns within the budget and starts them at a message from the person', () => {
    const entries = [user(), assistant(), user(), assistant(), user(), assistant()];
    expect(keptStart(entries, 25)).toBe(4);
    expect(keptStart(entries, 35)).toBe(4);
    expect(keptStart(entries, 1_000)).toBe(0);
    // Compact now: keep nothing, summarise everything.
    expect(keptStart(entries, 0)).toBe(6);
  });

  it('never separates a tool call from its result, for any budget, even inside one long turn', () => {
    const entries: RangeEntry[] = [user()];
    for (let step = 0; step < 12; step += 1) {
      entries.push(
        assistant(3),
        call(`a${step}`, 5 + step),
        call(`b${step}`, 7),
        result(`a${step}`, 11),
        result(`b${step}`, 13 + step),
      );
    }
    for (let keep = 0; keep < 800; keep += 3) {
      const start = keptStart(entries, keep);
      const summarised = entries.slice(0, start);
      const kept = entries.slice(start);
      const keptCalls = new Set(kept.filter((entry) => entry.role === 'tool_call').map((entry) => entry.toolCallId));
      const summarisedCalls = new Set(
        summarised.filter((entry) => entry.role === 'tool_call').map((entry) => entry.toolCallId),
      );
      for (const entry of kept)
        if (entry.role === 'tool_result') expect(keptCalls.has(entry.toolCallId), `keep ${keep}`).toBe(true);
      for (const entry of summarised)
        if (entry.role === 'tool_result') expect(summarisedCalls.has(entry.toolCallId), `keep ${keep}`).toBe(true);
      expect(kept[0]?.role ?? 'none', `keep ${keep}`).not.toBe('tool_result');
    }
  });

  it('marks the cuts that would split a call from its result as unclean', () => {
    expect(cleanBoundaries([user(), call('c'), result('c'), assistant()])).toEqual([true, true, false, true, true]);
  });
});
