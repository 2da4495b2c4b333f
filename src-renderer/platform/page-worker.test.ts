import { describe, expect, it, vi } from 'vitest';
import type { DesktopNote } from './notifier';
import { registerPageWorker, type WorkerRegistration } from './page-worker';

function fakeBrowser(options: { secure: boolean; refuses?: boolean }) {
  const shown: Array<{ title: string; options: Parameters<WorkerRegistration['showNotification']>[1] }> = [];
  const registration: WorkerRegistration = {
    showNotification: async (title, noteOptions) => {
      shown.push({ title, options: noteOptions });
    },
  };
  let onMessage: ((event: { data: unknown }) => void) | null = null;
  const register = vi.fn(() =>
    options.refuses === true
      ? Promise.reject(new DOMException('An SSL certificate error occurred', 'SecurityError'))
      : Promise.resolve({}),
  );
  const window = {
    isSecureContext: options.secure,
    navigator: {
      serviceWorker: {
        register,
        ready: Promise.resolve(registration),
        addEventListener: (_type: 'message', listener: (event: { data: unknown }) => void) => (onMessage = listener),
      },
    },
    focus: vi.fn(),
  };
  return { window, register, shown, tap: (data: unknown) => onMessage?.({ data }) };
}

describe('the page’s service worker', () => {
  it('shows notes once it runs, and a tap on one brings the page forward and opens what it is about', async () => {
    const browser = fakeBrowser({ secure: true });
    let show: ((note: DesktopNote) => void) | null = null;
    await registerPageWorker(browser.window, (ready) => (show = ready));
    expect(browser.register).toHaveBeenCalledWith('./sw.js');
    const opened = vi.fn();
    show!({ title: 'Asks a question is waiting for you', body: 'Deploy target?', onClick: opened });
    expect(browser.shown).toEqual([
      {
        title: 'Asks a question is waiting for you',
        options: { body: 'Deploy target?', tag: 'cairn-waiting', data: { noteId: 'note-1' } },
      },
    ]);

    browser.tap({ kind: 'something else', noteId: 'note-1' });
    expect(opened).not.toHaveBeenCalled();
    browser.tap({ kind: 'cairn.notificationClick', noteId: 'note-1' });
    expect(browser.window.focus).toHaveBeenCalled();
    expect(opened).toHaveBeenCalledTimes(1);
    // A second tap on the same note only brings the page forward.
    browser.tap({ kind: 'cairn.notificationClick', noteId: 'note-1' });
    expect(opened).toHaveBeenCalledTimes(1);
  });

  it('is harmless where the browser refuses it (a self-signed certificate) or forbids it (not a secure context)', async () => {
    const selfSigned = fakeBrowser({ secure: true, refuses: true });
    const onReady = vi.fn();
    await expect(registerPageWorker(selfSigned.window, onReady)).resolves.toBeUndefined();
    expect(onReady).not.toHaveBeenCalled();

    const plainHttp = fakeBrowser({ secure: false });
    await registerPageWorker(plainHttp.window, onReady);
    expect(plainHttp.register).not.toHaveBeenCalled();
    expect(onReady).not.toHaveBeenCalled();
  });
});
