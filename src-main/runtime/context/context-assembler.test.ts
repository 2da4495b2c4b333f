import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TranscriptItem, TranscriptItemKind } from '../../../src-shared/model';
import { conversationFromHistory } from '../agent-backends/builtin/conversation';
import { ContextAssembler } from './context-assembler';
import { OFFLOAD_DIR, OffloadStore } from './offload';
import { readOutputTool } from './read-output-tool';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));
function offloadStore(): OffloadStore {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-ctx-'));
  dirs.push(dir);
  return new OffloadStore(dir);
}

/** A transcript in memory, read the way the store reads it (newest page before a position), counting reads. */
function transcript() {
  const items: TranscriptItem[] = [];
  let itemsRead = 0;
  const add = (turnId: string, kind: TranscriptItemKind, text: string, data: Record<string, unknown> | null = null) => {
    items.push({
      itemId: `i${items.length}`,
      sessionId: 's',
      turnId,
      runId: `r-${turnId}`,
      position: items.length,
      kind,
      text,
      state: 'final',
      data,
      createdAt: 0,
    });
  };
  const store = {
    page(_sessionId: string, before: number | null, limit: number) {
      const end = before ?? items.length;
      const page = items.slice(Math.max(0, end - limit), end);
      itemsRead += page.length;
      return page;
    },
  };
  return { items, add, store, itemsRead: () => itemsRead };
}

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i % 50}`).join(' ');

describe('context assembly', () => {
  it('keeps everything when it fits, oldest first', () => {
    const t = transcript();
    t.add('t1', 'user_message', 'hello');
    t.add('t1', 'assistant_message', 'hi there');
    const assembler = new ContextAssembler({ transcript: t.store, offload: offloadStore() });
    const result = assembler.assemble({ sessionId: 's', turnId: 't1', turnText: 'hello', budget: 10_000, factor: 1 });
    expect(result.history.map((message) => message.text)).toEqual(['hello', 'hi there']);
    expect(result.trimmed).toBe(false);
    expect(result.tokens).toBeGreaterThan(0);
  });

  it('drops the oldest turns to fit the budget and always keeps the turn’s own request', () => {
    const t = transcript();
    for (let turn = 0; turn < 50; turn += 1) {
      t.add(`t${turn}`, 'user_message', `question ${turn} ${words(40)}`);
      t.add(`t${turn}`, 'assistant_message', `answer ${turn} ${words(40)}`);
    }
    // The current turn has a long run of tool work after its request.
    t.add('now', 'user_message', 'the current request');
    for (let step = 0; step < 30; step += 1) {
      t.add('now', 'tool_call', 'get_current_time', {
        toolCallId: `c${step}`,
        toolName: 'get_current_time',
        input: {},
      });
      t.add('now', 'tool_result', 'get_current_time', {
        toolCallId: `c${step}`,
        toolName: 'get_current_time',
        output: words(30),
        isError: false,
      });
    }
    const assembler = new ContextAssembler({ transcript: t.store, offload: offloadStore() });
    const result = assembler.assemble({
      sessionId: 's',
      turnId: 'now',
      turnText: 'the current request',
      budget: 1_000,
      factor: 1,
    });
    expect(result.trimmed).toBe(true);
    expect(result.tokens).toBeLessThanOrEqual(1_000);
    expect(result.history[0]).toMatchObject({ role: 'user', text: 'the current request' });
    expect(result.history.some((message) => message.text.startsWith('question 0'))).toBe(false);
  });

  it('never splits a tool call from its result at the cut, for any budget', () => {
    const t = transcript();
    for (let turn = 0; turn < 20; turn += 1) {
      t.add(`t${turn}`, 'user_message', `ask ${turn}`);
      t.add(`t${turn}`, 'assistant_message', `calling two tools ${words(5)}`);
      t.add(`t${turn}`, 'tool_call', 'a', { toolCallId: `a${turn}`, toolName: 'a', input: { n: turn } });
      t.add(`t${turn}`, 'tool_call', 'b', { toolCallId: `b${turn}`, toolName: 'b', input: { n: turn } });
      t.add(`t${turn}`, 'tool_result', 'a', {
        toolCallId: `a${turn}`,
        toolName: 'a',
        output: words(20),
        isError: false,
      });
      t.add(`t${turn}`, 'tool_result', 'b', {
        toolCallId: `b${turn}`,
        toolName: 'b',
        output: words(20),
        isError: false,
      });
    }
    const assembler = new ContextAssembler({ transcript: t.store, offload: offloadStore() });
    for (let budget = 50; budget < 3_000; budget += 37) {
      const { history } = assembler.assemble({ sessionId: 's', turnId: 't19', turnText: 'ask 19', budget, factor: 1 });
      const calls = history
        .filter((message) => message.role === 'tool_call')
        .map((message) => message.data?.toolCallId);
      const results = history
        .filter((message) => message.role === 'tool_result')
        .map((message) => message.data?.toolCallId);
      expect(
        results.every((id) => calls.includes(id)),
        `budget ${budget}`,
      ).toBe(true);
      expect(history[0]?.role, `budget ${budget}`).toBe('user');
      // No call is answered by the "interrupted" stand-in: every call kept has its own result.
      const conversation = conversationFromHistory(history);
      expect(JSON.stringify(conversation)).not.toContain('interrupted before it returned');
    }
  });

  it('reads only about a window of the transcript per step, however long the session', () => {
    const t = transcript();
    for (let turn = 0; turn < 5_000; turn += 1) {
      t.add(`t${turn}`, 'user_message', `question ${turn}`);
      t.add(`t${turn}`, 'assistant_message', `answer ${turn}`);
    }
    const assembler = new ContextAssembler({ transcript: t.store, offload: offloadStore() });
    assembler.assemble({ sessionId: 's', turnId: 't4999', turnText: 'question 4999', budget: 2_000, factor: 1 });
    expect(t.itemsRead()).toBeLessThan(400);
  });

  it('offloads a large tool output: the model gets head, tail and a handle that read_output pages through', async () => {
    const t = transcript();
    const big = Array.from({ length: 6_000 }, (_, i) => `line ${i}: some output text`).join('\n');
    t.add('t1', 'user_message', 'run it');
    t.add('t1', 'tool_call', 'run', { toolCallId: 'c1', toolName: 'run', input: {} });
    t.add('t1', 'tool_result', 'run', { toolCallId: 'c1', toolName: 'run', output: big, isError: false });
    const offload = offloadStore();
    const assembler = new ContextAssembler({ transcript: t.store, offload });
    const { history, tokens } = assembler.assemble({
      sessionId: 's',
      turnId: 't1',
      turnText: 'run it',
      budget: 100_000,
      factor: 1,
    });
    const output = history[2]?.data?.output as {
      offloaded: boolean;
      handle: string;
      head: string;
      tail: string;
      totalChars: number;
    };
    expect(output.offloaded).toBe(true);
    expect(output.totalChars).toBe(big.length);
    expect(output.head.startsWith('line 0:')).toBe(true);
    expect(output.tail.endsWith('line 5999: some output text')).toBe(true);
    expect(tokens).toBeLessThan(5_000);
    // The transcript keeps the whole output.
    expect(t.items[2]?.data?.output).toBe(big);

    const tool = readOutputTool(offload);
    const context = { sessionId: 's', turnId: 't1', runId: 'r', now: () => 0, signal: new AbortController().signal };
    const middle = big.indexOf('line 3000:');
    const read = await tool.execute({ handle: output.handle, offset: middle, limit: 100 }, context);
    expect(read).toMatchObject({
      isError: false,
      output: { offset: middle, end: middle + 100, totalChars: big.length, more: true },
    });
    expect((read as { output: { text: string } }).output.text.startsWith('line 3000:')).toBe(true);
    const missing = await tool.execute({ handle: 'f'.repeat(64) }, context);
    expect(missing).toMatchObject({ isError: true });
    const malformed = await tool.execute({ handle: '../etc/passwd' }, context);
    expect(malformed).toMatchObject({ isError: true });
  });

  it('keeps a large output inline, cut with a note naming the store and the fix, when the offload store cannot be written', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cairn-ctx-'));
    dirs.push(dataDir);
    writeFileSync(join(dataDir, OFFLOAD_DIR), 'a file in the way');
    const offload = new OffloadStore(dataDir);
    expect(offload.check()).toMatch(/context-offload store .*context-offload cannot be used \(a file is in the way\)/);
    const t = transcript();
    const big = Array.from({ length: 6_000 }, (_, i) => `line ${i}: some output text`).join('\n');
    t.add('t1', 'user_message', 'run it');
    t.add('t1', 'tool_call', 'run', { toolCallId: 'c1', toolName: 'run', input: {} });
    t.add('t1', 'tool_result', 'run', { toolCallId: 'c1', toolName: 'run', output: big, isError: false });
    const assembler = new ContextAssembler({ transcript: t.store, offload });
    const { history, tokens } = assembler.assemble({
      sessionId: 's',
      turnId: 't1',
      turnText: 'run it',
      budget: 100_000,
      factor: 1,
    });
    const output = history[2]?.data?.output as {
      truncated: boolean;
      head: string;
      tail: string;
      totalChars: number;
      note: string;
    };
    expect(output).toMatchObject({ truncated: true, totalChars: big.length });
    expect(output.head.startsWith('line 0:')).toBe(true);
    expect(output.tail.endsWith('line 5999: some output text')).toBe(true);
    expect(output.note).toContain('cannot be read with read_output');
    expect(output.note).toContain('Move away whatever is at that path');
    expect(tokens).toBeLessThan(5_000);
  });
});
