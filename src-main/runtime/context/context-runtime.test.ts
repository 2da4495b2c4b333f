import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ContextMeter } from '../../../src-shared/context-model';
import { openStores, type Stores } from '../../storage/stores';
import { tempDataDir } from '../../testing/host-fixture';
import { EventBus } from '../ports/event-bus';
import { silentLogger } from '../ports/ports';
import { createContextRuntime, type ContextRuntime } from './context-runtime';
import { SESSIONS_CALIBRATED } from './token-count';

let temp: ReturnType<typeof tempDataDir>;
let stores: Stores;
let bus: EventBus;
let context: ContextRuntime;
beforeEach(() => {
  temp = tempDataDir();
  stores = openStores(temp.dir);
  bus = new EventBus('epoch', silentLogger);
  context = createContextRuntime({ dataDir: temp.dir, stores, bus, reveal: (data) => data, logger: silentLogger });
});
afterEach(() => {
  stores.close();
  temp.cleanup();
});

const meter = (used: number): ContextMeter => ({
  used,
  contextWindow: 200_000,
  outputReserve: 8_000,
  windowSource: 'reported',
  breakdown: { system: 0, summary: 0, messages: used, toolOutput: 0 },
  trimmed: false,
  modelId: 'gpt-5',
});

describe('context meters', () => {
  it('are kept for the sessions measured most recently, and dropped with a removed session', () => {
    context.noteMeter('first', meter(1));
    context.noteMeter('busy', meter(2));
    for (let index = 0; index < SESSIONS_CALIBRATED - 1; index += 1) context.noteMeter(`child-${index}`, meter(3));
    expect(context.meterOf('busy')?.used).toBe(2);
    expect(context.meterOf('first')).toBeNull(); // measured before a thousand others: forgotten, as after a restart
    bus.publish({ kind: 'session.removed', sessionId: 'busy' });
    expect(context.meterOf('busy')).toBeNull();
  });
});
