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
  return { shown, window: { document: { hidden: !focused, hasFocus: () => focused }, Notification: FakeNotification, focus: vi.fn() } };
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
