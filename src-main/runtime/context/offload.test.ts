import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStores, type Stores } from '../../storage/stores';
import { useTempDirs } from '../../testing/host-fixture';
import { EventBus } from '../ports/event-bus';
import { silentLogger } from '../ports/ports';
import type { TranscriptItemKind } from '../../../src-shared/model';
import { ContextAssembler } from './context-assembler';
import { createContextRuntime } from './context-runtime';
import { OFFLOAD_DIR, OffloadStore } from './offload';

const tempDir = useTempDirs();
const open: Stores[] = [];
afterEach(() => open.splice(0).forEach((stores) => stores.close()));

function setUp(sessionIds: readonly string[]) {
  const dataDir = tempDir();
  const stores = openStores(dataDir);
  open.push(stores);
  for (const sessionId of sessionIds) {
    stores.sessions.insert({
      sessionId,
      title: sessionId,
      titleSource: 'user',
      workspacePath: null,
      connectionId: 'c1',
      model: null,
      permissionMode: 'ask',
      now: 0,
    });
  }
  const offload = new OffloadStore(dataDir, stores.offloadUses);
  const fileOf = (handle: string) => join(dataDir, OFFLOAD_DIR, `${handle}.txt`);
  return { dataDir, stores, offload, fileOf };
}

function handleOf(put: ReturnType<OffloadStore['put']>): string {
  if (!put.ok) throw new Error(put.reason);
  return put.handle;
}

describe('offloaded outputs of removed sessions', () => {
  it('keeps a file another session uses when one is removed, deletes it when both are, and frees nothing on archiving', () => {
    const { stores, offload, fileOf } = setUp(['a', 'b']);
    const shared = handleOf(offload.put('a shared output '.repeat(1_000), 'a'));
    expect(handleOf(offload.put('a shared output '.repeat(1_000), 'b'))).toBe(shared);
    const own = handleOf(offload.put('only a used this', 'a'));

    stores.sessions.setArchived('a', true, 1);
    expect(offload.releaseUnused()).toEqual({ files: 0, bytes: 0 });
    expect(existsSync(fileOf(own))).toBe(true);

    stores.sessions.remove('a');
    expect(offload.releaseUnused()).toEqual({ files: 1, bytes: 'only a used this'.length });
    expect(existsSync(fileOf(shared))).toBe(true);
    expect(existsSync(fileOf(own))).toBe(false);
    expect(offload.get(shared)).toBe('a shared output '.repeat(1_000));

    stores.sessions.remove('b');
    expect(offload.releaseUnused().files).toBe(1);
    expect(existsSync(fileOf(shared))).toBe(false);
    expect(stores.offloadUses.released()).toEqual([]);
  });

  it('keeps a released file a session put again before the release ran', () => {
    const { stores, offload, fileOf } = setUp(['a', 'b']);
    const handle = handleOf(offload.put('output', 'a'));
    stores.sessions.remove('a');
    expect(stores.offloadUses.released()).toEqual([handle]);
    offload.put('output', 'b');
    expect(offload.releaseUnused().files).toBe(0);
    expect(existsSync(fileOf(handle))).toBe(true);
    expect(stores.offloadUses.released()).toEqual([]);
  });

  it('lists what deleting the archived sessions would release: outputs only archived sessions use', () => {
    const { stores, offload } = setUp(['a', 'b']);
    const shared = handleOf(offload.put('shared', 'a'));
    offload.put('shared', 'b');
    const own = handleOf(offload.put('own', 'a'));
    expect(stores.offloadUses.onlyArchived()).toEqual([]);
    stores.sessions.setArchived('a', true, 1);
    expect(stores.offloadUses.onlyArchived()).toEqual([own]);
    stores.sessions.setArchived('b', true, 1);
    expect(stores.offloadUses.onlyArchived().sort()).toEqual([own, shared].sort());
  });

  it('records the session an assembled history offloaded an output for', () => {
    const { stores, offload } = setUp(['a']);
    const big = Array.from({ length: 6_000 }, (_, i) => `line ${i}: some output text`).join('\n');
    const item = (position: number, kind: TranscriptItemKind, text: string, data: Record<string, unknown>) => ({
      itemId: `i${position}`,
      sessionId: 'a',
      turnId: 't1',
      runId: 'r1',
      position,
      kind,
      text,
      state: 'final' as const,
      data,
      createdAt: 0,
    });
    const items = [
      item(0, 'tool_call', 'run', { toolCallId: 'c1', toolName: 'run', input: {} }),
      item(1, 'tool_result', 'run', { toolCallId: 'c1', toolName: 'run', output: big, isError: false }),
    ];
    const assembler = new ContextAssembler({ transcript: { page: () => items }, offload });
    const { history } = assembler.assemble({
      sessionId: 'a',
      turnId: 't1',
      turnText: 'run it',
      budget: 100_000,
      factor: 1,
    });
    const handle = (history.at(-1)?.data?.output as { handle: string }).handle;
    expect(stores.offloadUses.isUsed(handle)).toBe(true);
    stores.sessions.remove('a');
    expect(stores.offloadUses.released()).toEqual([handle]);
  });

  it('the context runtime deletes a removed session’s outputs when the removal is published, and at start', () => {
    const { dataDir, stores, offload, fileOf } = setUp(['a', 'b']);
    const first = handleOf(offload.put('first', 'a'));
    const second = handleOf(offload.put('second', 'b'));
    // A removal the previous host did not finish releasing: done when the runtime starts.
    stores.sessions.remove('a');
    const bus = new EventBus('epoch', silentLogger);
    createContextRuntime({ dataDir, stores, bus, reveal: () => null, logger: silentLogger });
    expect(existsSync(fileOf(first))).toBe(false);
    stores.sessions.remove('b');
    expect(existsSync(fileOf(second))).toBe(true);
    bus.publish({ kind: 'session.removed', sessionId: 'b' });
    expect(existsSync(fileOf(second))).toBe(false);
  });
});
