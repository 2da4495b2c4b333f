import type { Clock } from '../runtime/ports/ports';
import { systemClock } from '../runtime/ports/ports';

/**
 * A clock whose time moves only when a test says so. Timers set on it fire, in time order, as
 * `advance` or `set` passes them. `forHost()` is the same time with real short timers (the
 * runtime's write coalescing must still run while the test holds time still).
 */
export class ManualClock implements Clock {
  private current: number;
  private timers: Array<{ at: number; callback: () => void; id: number }> = [];
  private nextId = 1;

  constructor(start: number) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimeout(callback: () => void, ms: number): () => void {
    const id = this.nextId++;
    this.timers.push({ at: this.current + Math.max(0, ms), callback, id });
    return () => {
      this.timers = this.timers.filter((timer) => timer.id !== id);
    };
  }

  /** Timers waiting to fire. */
  get pendingTimers(): number {
    return this.timers.length;
  }

  /** Moves time forward by `ms`, firing every timer it passes. */
  advance(ms: number): void {
    this.set(this.current + ms);
  }

  /** Moves time to `at` (never backwards), firing every timer it passes, earliest first. */
  set(at: number): void {
    for (;;) {
      const due = this.timers.filter((timer) => timer.at <= at).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (due === undefined) break;
      this.timers = this.timers.filter((timer) => timer.id !== due.id);
      this.current = Math.max(this.current, due.at);
      due.callback();
    }
    this.current = Math.max(this.current, at);
  }

  /** This clock's time with real timers, for the parts of the host that coalesce writes. */
  forHost(): Clock {
    return { now: () => this.current, setTimeout: (callback, ms) => systemClock.setTimeout(callback, ms) };
  }
}
