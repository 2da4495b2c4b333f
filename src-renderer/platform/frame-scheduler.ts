/** Schedules work for the next frame; returns a cancel function. */
export type FrameScheduler = (callback: () => void) => () => void;

/** How long to wait when frames are not coming (a hidden tab gets no animation frames). */
const HIDDEN_FALLBACK_MS = 100;

/** The next animation frame, or a timer when frames are paused, whichever comes first. */
export function animationFrameScheduler(win: Window): FrameScheduler {
  return (callback) => {
    let done = false;
    const run = () => {
      if (done) return;
      done = true;
      win.cancelAnimationFrame(frame);
      win.clearTimeout(timer);
      callback();
    };
    const frame = win.requestAnimationFrame(run);
    const timer = win.setTimeout(run, HIDDEN_FALLBACK_MS);
    return () => {
      done = true;
      win.cancelAnimationFrame(frame);
      win.clearTimeout(timer);
    };
  };
}

/** Runs scheduled callbacks only when `flush()` is called: deterministic frames for tests. */
export function manualFrameScheduler(): FrameScheduler & { flush(): void; readonly pending: number } {
  let queue: Array<() => void> = [];
  const schedule = ((callback: () => void) => {
    queue.push(callback);
    return () => {
      queue = queue.filter((entry) => entry !== callback);
    };
  }) as FrameScheduler & { flush(): void; readonly pending: number };
  schedule.flush = () => {
    const due = queue;
    queue = [];
    for (const callback of due) callback();
  };
  Object.defineProperty(schedule, 'pending', { get: () => queue.length });
  return schedule;
}
