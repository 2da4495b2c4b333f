import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from './provider-test-server';
import { toolLoopModel } from './tool-loop-model';

/** A Responses request whose input carries the results of `answered`. */
function requestWith(answered: readonly string[]): RecordedRequest {
  const input = [
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Run the commands' }] },
    ...answered.flatMap((callId) => [
      { type: 'function_call', call_id: callId, name: 'exec_command', arguments: '{}' },
      { type: 'function_call_output', call_id: callId, output: 'ok' },
    ]),
  ];
  return {
    method: 'POST',
    path: '/v1/responses',
    headers: {},
    body: { input },
    receivedAt: 0,
    clientClosedAt: null,
    outcome: Promise.resolve('completed'),
  };
}

describe('toolLoopModel', () => {
  const model = toolLoopModel(
    [
      { id: 'call_0', name: 'exec_command', input: { cmd: 'first' } },
      { id: 'call_1', name: 'exec_command', input: { cmd: 'second' } },
    ],
    'Done.',
  );
  const callIdOf = (request: RecordedRequest) => model(request).toolCalls.map((call) => call.id);

  it('answers each request with the first call whose result it lacks, then with the final text', () => {
    expect(callIdOf(requestWith([]))).toEqual(['call_0']);
    expect(callIdOf(requestWith(['call_0']))).toEqual(['call_1']);
    const last = model(requestWith(['call_0', 'call_1']));
    expect(last.toolCalls).toEqual([]);
    expect(last.text.join('')).toBe('Done.');
  });

  it('answers a repeated request the same way, so an extra request never skips a step', () => {
    expect(callIdOf(requestWith(['call_0']))).toEqual(['call_1']);
    expect(callIdOf(requestWith(['call_0']))).toEqual(['call_1']);
    expect(callIdOf(requestWith([]))).toEqual(['call_0']);
  });
});
