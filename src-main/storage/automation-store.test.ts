import { afterEach, describe, expect, it } from 'vitest';
import { openStores, type Stores } from './stores';
import { tempDataDir } from '../testing/host-fixture';

let stores: Stores | null = null;
let cleanup = () => {};
afterEach(() => {
  stores?.close();
  cleanup();
});

function open(): Stores {
  const temp = tempDataDir();
  cleanup = temp.cleanup;
  stores = openStores(temp.dir);
  return stores;
}

const fields = {
  title: 'T',
  prompt: 'p',
  target: { kind: 'session', sessionId: 's' },
  schedule: { kind: 'every', minutes: 5 },
  timeZone: 'UTC',
  effect: 'turn',
  catchUpMinutes: 60,
} as const;

describe('automation store', () => {
  it('records a firing id once, keeps the cursor moving forward only, and resuming skips what passed while paused', () => {
    const { automations } = open();
    automations.insertTask({ ...fields, taskId: 't', system: null, enabled: true, now: 100 });
    const firing = {
      firingId: 't:1',
      taskId: 't',
      slotAt: 1,
      status: 'pending',
      reason: null,
      catchUp: false,
      collapsedSlots: 0,
      manual: false,
      prompt: 'p',
      sessionId: 's',
      now: 100,
    } as const;
    expect(automations.insertFiring(firing)).toBe(true);
    expect(automations.insertFiring({ ...firing, status: 'missed' })).toBe(false);
    expect(automations.pendingFirings().map((row) => row.firingId)).toEqual(['t:1']);
    automations.setCursor('t', 500);
    automations.setCursor('t', 200);
    expect(automations.getTask('t')?.cursorAt).toBe(500);
    automations.setEnabled('t', false, null, 600);
    const resumed = automations.setEnabled('t', true, null, 900);
    expect(resumed).toMatchObject({ enabled: true, cursorAt: 900, revision: 3 });
    expect(automations.tasksTargeting('s').map((task) => task.taskId)).toEqual(['t']);
    expect(automations.removeTask('t')).toBe(true);
    expect(automations.getFiring('t:1')).toBeNull();
  });
});
