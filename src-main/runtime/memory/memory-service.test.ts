import { afterEach, describe, expect, it } from 'vitest';
import type { SessionRecord } from '../../../src-shared/model';
import { openMemoryStore, type MemoryStoreOpening } from '../../storage/memory-store';
import { useTempDirs } from '../../testing/host-fixture';
import { EventBus } from '../ports/event-bus';
import { sequentialIds, silentLogger } from '../ports/ports';
import { BRIEF_LIMITS, MemoryService } from './memory-service';

describe('the memory service', () => {
  const dir = useTempDirs();
  const services: MemoryService[] = [];
  afterEach(() => services.splice(0).forEach((service) => service.close()));

  function service(memory: MemoryStoreOpening, workspacePath: string | null = '/w') {
    const session = { sessionId: 's1', workspacePath } as SessionRecord;
    let now = 0;
    const created = new MemoryService({
      memory,
      stores: { sessions: { get: (id: string) => (id === 's1' ? session : null) } as never },
      bus: new EventBus('epoch', silentLogger),
      clock: { now: () => (now += 1), setTimeout: () => () => {} },
      ids: sequentialIds(),
      logger: silentLogger,
    });
    services.push(created);
    return created;
  }

  it('briefs a session with at most BRIEF_LIMITS memories and characters, newest first', () => {
    const memory = service(openMemoryStore(dir()));
    for (let n = 1; n <= 30; n += 1)
      memory.remember({
        sessionId: 's1',
        turnId: `t${n}`,
        text: `fact ${n} ${'x'.repeat(300)}`,
        scope: n % 2 === 0 ? 'global' : 'workspace',
      });
    const brief = memory.briefFor('s1');
    expect(brief.length).toBeGreaterThan(0);
    expect(brief.length).toBeLessThanOrEqual(BRIEF_LIMITS.count);
    expect(brief.reduce((sum, m) => sum + m.text.length, 0)).toBeLessThanOrEqual(BRIEF_LIMITS.chars);
    expect(brief[0]?.text.startsWith('fact 30 ')).toBe(true);
  });

  it('finds the same text instead of saving it twice', () => {
    const memory = service(openMemoryStore(dir()));
    const first = memory.remember({ sessionId: 's1', turnId: 't1', text: 'Same', scope: 'global' });
    const again = memory.remember({ sessionId: 's1', turnId: 't2', text: 'Same', scope: 'global' });
    expect(first).toMatchObject({ ok: true, result: { created: true } });
    expect(again).toMatchObject({ ok: true, result: { created: false, memory: { sourceTurnId: 't1' } } });
  });

  it('without its store: every call says memory is unavailable, and the brief is empty', () => {
    const memory = service({ unavailable: 'Memory is unavailable: test.' });
    expect(memory.briefFor('s1')).toEqual([]);
    expect(memory.list(undefined, undefined)).toEqual({
      ok: false,
      error: { code: 'operation_unavailable', message: 'Memory is unavailable: test.' },
    });
    expect(memory.remember({ sessionId: 's1', turnId: 't1', text: 'x', scope: 'global' })).toMatchObject({
      ok: false,
      error: { code: 'operation_unavailable' },
    });
  });
});
