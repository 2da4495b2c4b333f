import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OFFLINE_DEMO_CONNECTION_ID } from '../../../src-shared/connection-model';
import { startTestHost, type TestHost } from '../../testing/host-fixture';
import { createScriptedBackend } from '../agent-backends/scripted/scripted-backend';
import type { AgentBackend, AgentRunInput } from '../contract/agent-backend';
import { EARLIER_TURN_TEXT_CHARS } from './run-history';

let t: TestHost;
const inputs: AgentRunInput[] = [];
beforeEach(async () => {
  inputs.length = 0;
  const scripted = createScriptedBackend({ replyChunkMs: 0 });
  const recording: AgentBackend = {
    id: scripted.id,
    run(input, signal) {
      inputs.push(input);
      return scripted.run(input, signal);
    },
  };
  t = await startTestHost({ backends: new Map([[OFFLINE_DEMO_CONNECTION_ID, recording]]) });
});
afterEach(async () => {
  await t.close();
});

describe('a run’s history', () => {
  it('cuts the text of earlier turns’ messages (what a live run holds stays small) and keeps this turn’s whole', async () => {
    const { sessionId } = (await t.call('session.create', {})).session;
    await t.call('turn.start', { sessionId, turnId: 't1', text: '/stream 1000 0' });
    await t.waitForTurn(sessionId, 't1', ['completed']);
    const long = `Tell me more. ${'word '.repeat(2_000)}`;
    await t.call('turn.start', { sessionId, turnId: 't2', text: long });
    await t.waitForTurn(sessionId, 't2', ['completed']);

    const history = inputs.at(-1)?.history ?? [];
    const earlier = history.find((message) => message.turnId === 't1' && message.role === 'assistant');
    expect(earlier?.text.startsWith('chunk 1/1000 chunk 2/1000')).toBe(true);
    expect(earlier?.text.length).toBeLessThan(EARLIER_TURN_TEXT_CHARS + 100);
    expect(earlier?.text).toMatch(/… \(\d+ more characters left out\)$/);
    expect(history.find((message) => message.turnId === 't2' && message.role === 'user')?.text).toBe(long);
  });
});
