import { describe, expect, it } from 'vitest';
import type { TranscriptItem } from '../../src-shared/model';
import { toolTitle, updateForDelta, updateForItem } from './transcript-updates';

function item(kind: TranscriptItem['kind'], text: string, data: TranscriptItem['data'] = null): TranscriptItem {
  return {
    itemId: `item-${kind}`,
    sessionId: 's1',
    turnId: 't1',
    runId: 'r1',
    position: 1,
    kind,
    text,
    state: 'final',
    data,
    createdAt: 0,
  };
}

describe('transcript items as ACP session updates', () => {
  it('sends the person’s message when replaying a loaded session or for a turn started elsewhere, not for the editor’s own prompt (it shows it already)', () => {
    expect(updateForItem(item('user_message', 'fix the tests'), 'own_prompt')).toBeNull();
    for (const source of ['replay', 'elsewhere'] as const)
      expect(updateForItem(item('user_message', 'fix the tests'), source)).toEqual({
        sessionUpdate: 'user_message_chunk',
        messageId: 'item-user_message',
        content: { type: 'text', text: 'fix the tests' },
      });
  });

  it('streams replies and reasoning as their own chunks, and nothing for an empty start or a proposal', () => {
    expect(updateForItem(item('assistant_message', ''), 'own_prompt')).toBeNull();
    expect(updateForDelta('assistant_message', 'i1', 'Hel')).toMatchObject({ sessionUpdate: 'agent_message_chunk' });
    expect(updateForDelta('reasoning', 'i2', 'think')).toMatchObject({ sessionUpdate: 'agent_thought_chunk' });
    expect(updateForDelta('tool_call', 'i3', 'x')).toBeNull();
    expect(updateForItem(item('proposal', 'Route to…'), 'own_prompt')).toBeNull();
  });

  it('turns a tool call and its result into tool_call and tool_call_update, with its kind and file', () => {
    const call = item('tool_call', '', { toolCallId: 'c1', toolName: 'edit_file', input: { path: 'src/a.ts' } });
    expect(updateForItem(call, 'own_prompt')).toEqual({
      sessionUpdate: 'tool_call',
      toolCallId: 'c1',
      title: 'edit_file: src/a.ts',
      kind: 'edit',
      status: 'in_progress',
      rawInput: { path: 'src/a.ts' },
      locations: [{ path: 'src/a.ts' }],
    });
    const failed = item('tool_result', '', {
      toolCallId: 'c1',
      toolName: 'edit_file',
      output: 'No such file',
      isError: true,
    });
    expect(updateForItem(failed, 'own_prompt')).toEqual({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'c1',
      status: 'failed',
      content: [{ type: 'content', content: { type: 'text', text: 'No such file' } }],
    });
  });

  it('cuts a long result for the editor, saying so', () => {
    const long = item('tool_result', '', { toolCallId: 'c2', toolName: 'read_file', output: 'x'.repeat(30_000) });
    const update = updateForItem(long, 'own_prompt');
    const text = update?.sessionUpdate === 'tool_call_update' ? JSON.stringify(update.content) : '';
    expect(text.length).toBeLessThan(21_000);
    expect(text).toContain('(cut; the rest is in Cairn)');
  });

  it('titles a tool by what it works on', () => {
    expect(toolTitle('run_shell', { command: 'npm test' })).toBe('run_shell: npm test');
    expect(toolTitle('get_current_time', {})).toBe('get_current_time');
  });
});
