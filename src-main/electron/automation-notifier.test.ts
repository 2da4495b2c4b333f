import { describe, expect, it } from 'vitest';
import type { ChangeEvent } from '../../src-shared/events';
import { notifyAutomations } from './automation-notifier';

function harness(focused: boolean) {
  let listener: ((event: ChangeEvent) => void) | null = null;
  const shown: Array<{ title: string; body: string }> = [];
  notifyAutomations({
    subscribe: (next) => {
      listener = next;
      return () => (listener = null);
    },
    isFocused: () => focused,
    show: ({ title, body }) => shown.push({ title, body }),
    focusApp: () => {},
  });
  const send = (event: Omit<Extract<ChangeEvent, { kind: 'host.notice' }>, 'seq' | 'hostEpoch'>) =>
    listener?.({ ...event, seq: 1, hostEpoch: 'e' });
  return { shown, send };
}

describe('automation notifications', () => {
  it('shows an OS notification for a finished or waiting scheduled run while the app is in the background', () => {
    const { shown, send } = harness(false);
    send({ kind: 'host.notice', code: 'automation_finished', sessionId: 's', message: '"Issues" finished.' });
    send({ kind: 'host.notice', code: 'automation_waiting', sessionId: 's', message: '"Issues" needs your answer.' });
    send({ kind: 'host.notice', code: 'storage_full', sessionId: null, message: 'The disk is full' });
    expect(shown).toEqual([
      { title: 'Scheduled task finished', body: '"Issues" finished.' },
      { title: 'A scheduled task needs your answer', body: '"Issues" needs your answer.' },
    ]);
  });

  it('leaves it to the in-app notice while a window is focused', () => {
    const { shown, send } = harness(true);
    send({ kind: 'host.notice', code: 'automation_finished', sessionId: 's', message: 'done' });
    expect(shown).toEqual([]);
  });
});
