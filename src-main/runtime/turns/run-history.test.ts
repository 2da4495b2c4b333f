import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TranscriptItem } from '../../../src-shared/model';
import { OFFLINE_DEMO_CONNECTION_ID } from '../../../src-shared/connection-model';
import { startTestHost, type TestHost } from '../../testing/host-fixture';
import { createScriptedBackend } from '../agent-backends/scripted/scripted-backend';
import { summariseForNewThread } from '../agent-backends/codex/thread-summary';
import type { AgentBackend, AgentRunInput } from '../contract/agent-backend';
import { historyMessageOf } from '../context/history-items';
import { EARLIER_TURN_TEXT_CHARS, runHistory } from './run-history';

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

  it('holds none of the long texts it cut (a cut is a string of its own, not a view of the original)', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const heapAfterGc = () => {
      gc();
      return process.memoryUsage().heapUsed;
    };
    const answer = (index: number): TranscriptItem => ({
      itemId: `i${index}`,
      sessionId: 's1',
      turnId: `t${index}`,
      runId: `r${index}`,
      position: index,
      kind: 'assistant_message',
      text: `Answer ${index}: ${'chunk '.repeat(20_000)}`, // 120 KB, 200 of them: 24 MB in all
      state: 'final',
      data: null,
      createdAt: 0,
    });
    const before = heapAfterGc();
    let items: TranscriptItem[] | null = Array.from({ length: 200 }, (_, index) => answer(index));
    const history = runHistory({ page: () => items ?? [] }, 's1', 'now');
    items = null;
    const held = heapAfterGc() - before;
    expect(history).toHaveLength(200);
    expect(held).toBeLessThan(8 * 1024 * 1024); // the cuts: 200 × 4,000 characters, not the 24 MB they came from
  });

  it('keeps no output of an earlier turn’s tool results (nor unmasks a secret one) and cuts long strings in its calls, without changing what Codex is told', () => {
    const item = (
      index: number,
      turnId: string,
      kind: TranscriptItem['kind'],
      data: TranscriptItem['data'],
    ): TranscriptItem => ({
      itemId: `i${index}`,
      sessionId: 's1',
      turnId,
      runId: `r-${turnId}`,
      position: index,
      kind,
      text: kind === 'tool_call' ? 'write_file' : '',
      state: 'final',
      data,
      createdAt: 0,
    });
    const content = `${'line of the file\n'.repeat(2_000)}`; // 34,000 characters
    const report = 'what the child found. '.repeat(2_000);
    const items = [
      item(1, 'earlier', 'tool_call', { toolCallId: 'c1', toolName: 'write_file', input: { path: 'a.txt', content } }),
      item(2, 'earlier', 'tool_result', {
        toolCallId: 'c1',
        toolName: 'write_file',
        output: { written: true },
        isError: false,
      }),
      item(3, 'earlier', 'tool_result', {
        toolCallId: 'c2',
        toolName: 'wait_agent',
        output: { children: [{ report }] },
        isError: false,
      }),
      item(4, 'earlier', 'tool_result', {
        toolCallId: 'c3',
        toolName: 'ask',
        output: '••••',
        masked: true,
        isError: false,
      }),
      item(5, 'now', 'tool_result', {
        toolCallId: 'c4',
        toolName: 'ask',
        output: '••••',
        masked: true,
        isError: false,
      }),
    ];
    const revealed: unknown[] = [];
    const reveal = (data: Readonly<Record<string, unknown>>) => {
      revealed.push(data.toolCallId);
      return 'the secret';
    };
    const history = runHistory({ page: () => items }, 's1', 'now', reveal);

    expect(revealed).toEqual(['c4']);
    expect(history.map((message) => message.data?.output)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      'the secret',
    ]);
    expect(history[2]?.data).toEqual({ toolCallId: 'c2', toolName: 'wait_agent', isError: false });
    const input = history[0]?.data?.input as { path: string; content: string };
    expect(input.path).toBe('a.txt');
    expect(input.content).toBe(`${content.slice(0, EARLIER_TURN_TEXT_CHARS)}…`);
    const whole = items.flatMap((entry) => historyMessageOf(entry) ?? []);
    const request = { turnId: 'now', text: 'Go on' };
    expect(summariseForNewThread(history, request)).toBe(summariseForNewThread(whole, request));
  });
});
