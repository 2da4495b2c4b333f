import { describe, expect, it } from 'vitest';
import { animationFrameScheduler, type FrameWindow } from './frame-scheduler';

/** A window whose frames, timers and input events the test drives. */
function fakeWindow() {
  let next = 1;
  const frames = new Map<number, () => void>();
  const timers = new Map<number, () => void>();
  const listeners = new Map<string, Array<() => void>>();
  const win: FrameWindow = {
    requestAnimationFrame: (callback) => {
      const id = next++;
      frames.set(id, () => callback(0));
      return id;
    },
    cancelAnimationFrame: (id) => void frames.delete(id),
    setTimeout: ((callback: () => void) => {
      const id = next++;
      timers.set(id, callback);
      return id;
    }) as FrameWindow['setTimeout'],
    clearTimeout: (id) => void timers.delete(id ?? 0),
    addEventListener: (type, listener) => void listeners.set(type, [...(listeners.get(type) ?? []), listener]),
  };
  return {
    win,
    frame() {
      const due = [...frames.values()];
      frames.clear();
      for (const callback of due) callback();
    },
    timersFire() {
      const due = [...timers.values()];
      timers.clear();
      for (const callback of due) callback();
    },
    input(type: string) {
      for (const listener of listeners.get(type) ?? []) listener();
    },
  };
}

describe('the animation frame scheduler', () => {
  it('runs a callback at the next frame, once, and not after it is cancelled', () => {
    const fake = fakeWindow();
    const schedule = animationFrameScheduler(fake.win);
    const ran: string[] = [];
    schedule(() => ran.push('a'));
    const cancel = schedule(() => ran.push('b'));
    cancel();
    fake.frame();
    fake.timersFire();
    expect(ran).toEqual(['a']);
  });

  it('leaves the frame after a keypress to the keypress: the callback runs one frame later, never more', () => {
    const fake = fakeWindow();
    const schedule = animationFrameScheduler(fake.win);
    const ran: string[] = [];
    schedule(() => ran.push('batch'));
    fake.input('keydown');
    fake.frame();
    expect(ran).toEqual([]);
    fake.input('keydown');
    fake.frame();
    expect(ran).toEqual(['batch']);
  });

  it('does not wait for frames that do not come (a hidden tab)', () => {
    const fake = fakeWindow();
    const schedule = animationFrameScheduler(fake.win);
    const ran: string[] = [];
    schedule(() => ran.push('batch'));
    fake.input('pointerdown');
    fake.frame();
    fake.timersFire();
    expect(ran).toEqual(['batch']);
  });
});
