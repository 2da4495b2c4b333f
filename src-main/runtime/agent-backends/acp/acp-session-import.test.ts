import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { forkPointIn } from './acp-session-fork';
import { turnsOfReplay } from './acp-session-import';

const user = (text: string): SessionUpdate => ({
  sessionUpdate: 'user_message_chunk',
  content: { type: 'text', text },
});
const agent = (text: string): SessionUpdate => ({
  sessionUpdate: 'agent_message_chunk',
  content: { type: 'text', text },
});

describe('an agent’s replayed history as Cairn turns', () => {
  it('opens a turn at each run of the person’s chunks and keeps the agent’s answer, calls and results in it', () => {
    const turns = turnsOfReplay([
      user('How many '),
      user('herons?'),
      { sessionUpdate: 'available_commands_update', availableCommands: [] },
      agent('Seven'),
      agent(' herons.'),
      { sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Read pond.txt', kind: 'read', status: 'completed' },
      user('And now?'),
      agent('Still seven.'),
    ]);
    expect(turns.map((turn) => turn.text)).toEqual(['How many herons?', 'And now?']);
    expect(turns[0]?.events).toEqual([
      { type: 'text_delta', text: 'Seven' },
      { type: 'text_delta', text: ' herons.' },
      { type: 'tool_call', toolCallId: 'c1', toolName: 'acp.read', input: { title: 'Read pond.txt' } },
      expect.objectContaining({ type: 'tool_result', toolCallId: 'c1', isError: false }),
    ]);
    expect(turns[1]?.events).toEqual([{ type: 'text_delta', text: 'Still seven.' }]);
  });

  it('keeps what the agent said before any message of the person as a turn of its own, and drops empty turns', () => {
    const turns = turnsOfReplay([agent('Welcome back.'), user('   '), agent(''), user('Hi  ')]);
    expect(turns).toEqual([
      { text: '(imported)', events: [{ type: 'text_delta', text: 'Welcome back.' }] },
      { text: 'Hi', events: [] },
    ]);
    expect(turnsOfReplay([user(' ')])).toEqual([]);
    expect(turnsOfReplay([])).toEqual([]);
  });
});

describe('where a branch forks the agent’s session', () => {
  const item = (kind: string, text: string) => ({ kind, text });
  it('at the agent’s last answer before the branch point, counting the answers of the same text up to it', () => {
    expect(
      forkPointIn('a1', [
        item('user_message', 'Count'),
        item('assistant_message', 'Seven.'),
        item('user_message', 'Again'),
        item('assistant_message', 'Seven.'),
        item('tool_call', 'acp.read'),
      ]),
    ).toEqual({ acpSessionId: 'a1', answer: 'Seven.', occurrence: 2 });
  });

  it('nowhere when the agent has not answered yet (a branch at the first message starts empty, as the agent does)', () => {
    expect(forkPointIn('a1', [item('user_message', 'Count'), item('assistant_message', '  ')])).toBeNull();
  });
});
