import { describe, expect, it } from 'vitest';
import type { TranscriptItem } from '../../src-shared/model';
import type { AppState } from './app-state';
import { item } from './reducers/record-fixtures';
import {
  continuesAnswer,
  selectAnswerSeams,
  selectAnswerStreaming,
  selectAnswerText,
  selectEndsAnswerTurn,
  selectResumeInsideAnswer,
} from './selectors';

function stateOf(items: TranscriptItem[]): AppState {
  const transcript = {
    itemIds: items.map((entry) => entry.itemId),
    itemsById: Object.fromEntries(items.map((entry) => [entry.itemId, entry])),
  };
  return { transcripts: { s1: transcript } } as unknown as AppState;
}

describe('an answer continued after it was cut off', () => {
  const items = [
    item({ itemId: 'u', position: 1, kind: 'user_message', text: 'Write a poem' }),
    item({ itemId: 'a1', position: 2, runId: 'r1', text: 'Roses are red, ' }),
    item({ itemId: 'a2', position: 3, runId: 'r2', text: 'violets are blue.', state: 'streaming' }),
    item({ itemId: 'u2', position: 4, turnId: 't2', runId: 'r3', kind: 'user_message', text: 'Again' }),
    item({ itemId: 'b1', position: 5, turnId: 't2', runId: 'r3', text: 'Sure.' }),
  ];

  it('joins the continuation onto the answer it continues, and only within a turn', () => {
    const transcript = stateOf(items).transcripts.s1!;
    expect(items.map((_, index) => continuesAnswer(transcript, index))).toEqual([false, false, true, false, false]);
    expect(selectAnswerText('s1', 1)(stateOf(items))).toBe('Roses are red, violets are blue.');
    expect(selectAnswerStreaming('s1', 1)(stateOf(items))).toBe(true);
    expect(selectAnswerText('s1', 4)(stateOf(items))).toBe('Sure.');
  });

  it('knows where the resumed part starts, with what its marker says, and draws that marker inside the answer', () => {
    const resumed = [
      items[0]!,
      items[1]!,
      item({
        itemId: 'n',
        position: 3,
        runId: 'r2',
        kind: 'notice',
        text: 'Resumed: you pressed Stop.',
        data: { resumed: { reason: 'stop_button' } },
      }),
      { ...items[2]!, position: 4 },
    ];
    expect(JSON.parse(selectAnswerSeams('s1', 1)(stateOf(resumed)))).toEqual([
      { offset: 'Roses are red, '.length, label: 'Resumed: you pressed Stop.' },
    ]);
    expect(selectAnswerText('s1', 1)(stateOf(resumed))).toBe('Roses are red, violets are blue.');
    expect(selectResumeInsideAnswer('s1', 2)(stateOf(resumed))).toBe(true);
    // Before the resumed run writes anything, the marker stands after the answer on its own.
    expect(selectResumeInsideAnswer('s1', 2)(stateOf(resumed.slice(0, 3)))).toBe(false);
    expect(JSON.parse(selectAnswerSeams('s1', 1)(stateOf(items)))).toEqual([]);
  });

  it('does not join two messages of the same run', () => {
    const sameRun = [items[0]!, items[1]!, { ...items[2]!, runId: 'r1' }];
    expect(continuesAnswer(stateOf(sameRun).transcripts.s1!, 2)).toBe(false);
    expect(selectAnswerText('s1', 1)(stateOf(sameRun))).toBe('Roses are red, ');
  });
});

describe('a turn’s final answer', () => {
  it('is the answer (continuations joined) that ends its turn, not an interim line before a tool call', () => {
    const items = [
      item({ itemId: 'u', position: 1, kind: 'user_message', text: 'Write it' }),
      item({ itemId: 'a0', position: 2, runId: 'r1', text: 'Calling write_file.' }),
      item({ itemId: 'c', position: 3, runId: 'r1', kind: 'tool_call', text: 'write_file' }),
      item({ itemId: 'a1', position: 4, runId: 'r1', text: 'Done, ' }),
      item({ itemId: 'a2', position: 5, runId: 'r2', text: 'all of it.' }),
      item({ itemId: 'u2', position: 6, turnId: 't2', runId: 'r3', kind: 'user_message', text: 'Thanks' }),
    ];
    expect(items.map((_, index) => selectEndsAnswerTurn('s1', index)(stateOf(items)))).toEqual([
      false,
      false,
      false,
      true,
      true,
      true,
    ]);
  });
});
