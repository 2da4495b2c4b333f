import { describe, expect, it, vi } from 'vitest';
import { backgroundNotifier } from './notifier';

function fakeWindow(permission: string, focused: boolean) {
  const shown: Array<{ title: string; body: string; instance: { onclick: (() => void) | null } }> = [];
  class FakeNotification {
    static permission = permission;
    onclick: (() => void) | null = null;
    constructor(title: string, options: { body: string }) {
      shown.push({ title, body: options.body, instance: this });
    }
  }
  return {
    shown,
    window: { document: { hidden: !focused, hasFocus: () => focused }, Notification: FakeNotification, focus: vi.fn() },
  };
}

describe('backgroundNotifier', () => {
  it('notifies only in the background and only with permission already granted', () => {
    const granted = fakeWindow('granted', false);
    const onClick = vi.fn();
    backgroundNotifier(granted.window)({ title: 'Waiting for you', body: 'Deploy target?', onClick });
    expect(granted.shown).toHaveLength(1);
    granted.shown[0]?.instance.onclick?.();
    expect(onClick).toHaveBeenCalled();
    expect(granted.window.focus).toHaveBeenCalled();

    const focused = fakeWindow('granted', true);
    backgroundNotifier(focused.window)({ title: 't', body: 'b' });
    expect(focused.shown).toHaveLength(0);

    const notAsked = fakeWindow('default', false);
    backgroundNotifier(notAsked.window)({ title: 't', body: 'b' });
    expect(notAsked.shown).toHaveLength(0);
  });
});

describe('backgroundNotifier on a phone', () => {
  it('shows notes through the page’s service worker where the browser refuses `new Notification`, under the same conditions', () => {
    const phone = (focused: boolean) => {
      const window = fakeWindow('granted', focused).window;
      class RefusingNotification {
        static permission = 'granted';
        onclick = null;
        constructor() {
          throw new TypeError('Illegal constructor. Use ServiceWorkerRegistration.showNotification() instead.');
        }
      }
      return { ...window, Notification: RefusingNotification };
    };
    const throughWorker: Array<{ title: string; body: string }> = [];
    let worker: ((note: { title: string; body: string }) => void) | null = null;
    const notify = backgroundNotifier(phone(false), () => worker);
    // Before the worker runs, nothing can be shown (and nothing breaks).
    notify({ title: 'Before the worker', body: 'b' });
    expect(throughWorker).toEqual([]);

    worker = (note) => throughWorker.push(note);
    notify({ title: 'Asks a question is waiting for you', body: 'Deploy target?' });
    expect(throughWorker).toEqual([{ title: 'Asks a question is waiting for you', body: 'Deploy target?' }]);

    backgroundNotifier(phone(true), () => worker)({ title: 'In front', body: 'b' });
    expect(throughWorker).toHaveLength(1);

    // Where the browser constructs notes itself (a desktop browser), the worker is not used.
    const desktop = fakeWindow('granted', false);
    backgroundNotifier(desktop.window, () => worker)({ title: 'Desktop', body: 'b' });
    expect(desktop.shown.map((note) => note.title)).toEqual(['Desktop']);
    expect(throughWorker).toHaveLength(1);
  });
});
