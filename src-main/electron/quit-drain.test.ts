import { describe, expect, it } from 'vitest';
import { silentLogger } from '../runtime/ports/ports';
import { drainBeforeQuit, type QuittableApp } from './quit-drain';

/** A stand-in for Electron's app: `quit()` emits before-quit and, unless prevented, counts as quitting. */
function fakeApp() {
  const listeners: ((event: { preventDefault(): void }) => void)[] = [];
  const log: string[] = [];
  let quitted!: () => void;
  const didQuit = new Promise<void>((resolve) => (quitted = resolve));
  const app: QuittableApp = {
    on(_event, listener) {
      listeners.push(listener);
    },
    quit() {
      let prevented = false;
      for (const listener of listeners) listener({ preventDefault: () => (prevented = true) });
      log.push(prevented ? 'quit held' : 'quit');
      if (!prevented) quitted();
    },
    exit(code) {
      log.push(`exit ${code ?? 0}`);
    },
  };
  return { app, log, didQuit };
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((res) => (resolve = res));
  return { promise, resolve };
}

describe('drainBeforeQuit', () => {
  it('holds the first quit, drains once, then quits for real', async () => {
    const { app, log, didQuit } = fakeApp();
    const drain = deferred();
    let drains = 0;
    drainBeforeQuit(app, {
      drain: () => {
        drains += 1;
        log.push('draining');
        return drain.promise.then(() => log.push('drained')).then(() => undefined);
      },
      logger: silentLogger,
      setTimer: () => {},
    });

    app.quit();
    app.quit();
    expect(log).toEqual(['draining', 'quit held', 'quit held']);
    drain.resolve();
    await didQuit;
    expect(log).toEqual(['draining', 'quit held', 'quit held', 'drained', 'quit']);
    expect(drains).toBe(1);
  });

  it('still quits when the drain fails', async () => {
    const { app, log, didQuit } = fakeApp();
    drainBeforeQuit(app, {
      drain: () => Promise.reject(new Error('disk gone')),
      logger: silentLogger,
      setTimer: () => {},
    });
    app.quit();
    await didQuit;
    expect(log).toEqual(['quit held', 'quit']);
  });

  it('exits with an error when the drain outlasts its deadline', () => {
    const { app, log } = fakeApp();
    const timers: { callback: () => void; ms: number }[] = [];
    drainBeforeQuit(app, {
      drain: () => new Promise<void>(() => {}),
      logger: silentLogger,
      timeoutMs: 5000,
      setTimer: (callback, ms) => timers.push({ callback, ms }),
    });
    app.quit();
    expect(timers.map((timer) => timer.ms)).toEqual([5000]);
    timers[0]!.callback();
    expect(log).toEqual(['quit held', 'exit 1']);
  });
});
