import { describe, expect, it } from 'vitest';
import type { ChangeEvent } from '../../src-shared/events';
import type { InteractionRecord } from '../../src-shared/interaction-model';
import { notifyPendingInteractions } from './interaction-notifier';

const interaction = (interactionId: string, status: InteractionRecord['status']): InteractionRecord => ({
  interactionId,
  sessionId: 's',
  turnId: 't',
  runId: 'r',
  toolCallId: 'c',
  request: {
    kind: 'form',
    title: 'New project',
    fields: [{ id: 'name', label: 'Name', required: true, type: 'string' }],
  },
  status,
  answer: null,
  closeReason: null,
  createdAt: 0,
  updatedAt: 0,
});

function harness(focused: boolean) {
  let listener: ((event: ChangeEvent) => void) | null = null;
  const shown: Array<{ title: string; body: string; onClick: () => void }> = [];
  let focusedApp = 0;
  const stop = notifyPendingInteractions({
    subscribe: (next) => {
      listener = next;
      return () => (listener = null);
    },
    isFocused: () => focused,
    show: (notification) => shown.push(notification),
    focusApp: () => (focusedApp += 1),
  });
  let seq = 0;
  const emit = (record: InteractionRecord) =>
    listener?.({ kind: 'interaction.changed', interaction: record, seq: (seq += 1), hostEpoch: 'e' });
  return { emit, shown, stop, focusedApp: () => focusedApp, listening: () => listener !== null };
}

describe('notifyPendingInteractions', () => {
  it('notifies once per new pending interaction while no window is focused, and clicking focuses the app', () => {
    const h = harness(false);
    h.emit(interaction('i1', 'pending'));
    h.emit(interaction('i1', 'pending'));
    h.emit(interaction('i1', 'answered'));
    expect(h.shown.map(({ title, body }) => ({ title, body }))).toEqual([
      { title: 'Cairn needs some details', body: 'New project' },
    ]);
    h.shown[0]?.onClick();
    expect(h.focusedApp()).toBe(1);
    h.stop();
    expect(h.listening()).toBe(false);
  });

  it('stays quiet while a window has the focus', () => {
    const h = harness(true);
    h.emit(interaction('i1', 'pending'));
    expect(h.shown).toEqual([]);
  });
});
