/** Schedules work for the next frame; returns a cancel function. */
export type FrameScheduler = (callback: () => void) => () => void;

/** How long to wait when frames are not coming (a hidden tab gets no animation frames). */
const HIDDEN_FALLBACK_MS = 100;

/** The window's parts a frame scheduler uses (a fake one in tests). */
export interface FrameWindow extends Pick<
  Window,
  'requestAnimationFrame' | 'cancelAnimationFrame' | 'setTimeout' | 'clearTimeout'
> {
  addEventListener(type: string, listener: () => void, options: AddEventListenerOptions): void;
}

/**
 * The next animation frame, or a timer when frames are paused, whichever comes first — except that a
 * frame the person typed or pressed something for is left to that input: the callback (the store's
 * batch of host events) moves to the frame after, once. At ~200 streamed deltas a second the batch's
 * render, layout and paint filled the frame a keypress waited for; now that frame shows the keypress.
 */
export function animationFrameScheduler(win: FrameWindow): FrameScheduler {
  let inputs = 0;
  const noteInput = () => {
    inputs += 1;
  };
  for (const type of ['keydown', 'beforeinput', 'pointerdown'])
    win.addEventListener(type, noteInput, { capture: true, passive: true });
  return (callback) => {
    let done = false;
    let yielded = false;
    const inputsWhenAsked = inputs;
    let frame = 0;
    const run = () => {
      if (done) return;
      done = true;
      win.cancelAnimationFrame(frame);
      win.clearTimeout(timer);
      callback();
    };
    const onFrame = () => {
      if (done) return;
      if (!yielded && inputs !== inputsWhenAsked) {
        yielded = true;
        frame = win.requestAnimationFrame(onFrame);
        return;
      }
      run();
    };
    frame = win.requestAnimationFrame(onFrame);
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
