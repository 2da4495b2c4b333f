import { describe, expect, it } from 'vitest';
import { item } from './reducers/record-fixtures';
import { toolCallKey } from './reducers/shell-reducer';
import { indexToolCalls } from './tool-calls';

describe('pairing tool calls with their results', () => {
  it('pairs by turn and call id, across runs of the turn', () => {
    const items = [
      item({
        itemId: 'c1',
        position: 1,
        kind: 'tool_call',
        runId: 'r1',
        data: { toolCallId: 'call-1', toolName: 'edit_file', input: {}, interactionId: 'i1' },
      }),
      item({ itemId: 'x', position: 2, kind: 'assistant_message', text: 'Calling edit_file.' }),
      item({
        itemId: 'r1',
        position: 3,
        kind: 'tool_result',
        runId: 'r2',
        data: { toolCallId: 'call-1', toolName: 'edit_file', output: {}, isError: false },
      }),
      item({
        itemId: 'c2',
        position: 4,
        kind: 'tool_call',
        turnId: 't2',
        data: { toolCallId: 'call-1', toolName: 'run_shell', input: {} },
      }),
    ];
    const index = indexToolCalls(
      items.map((entry) => entry.itemId),
      Object.fromEntries(items.map((entry) => [entry.itemId, entry])),
    );
    expect(index.get(toolCallKey('t1', 'call-1'))).toEqual({ callId: 'c1', resultId: 'r1' });
    expect(index.get(toolCallKey('t2', 'call-1'))).toEqual({ callId: 'c2' });
    expect(index.size).toBe(2);
  });
});
