import type { ChangeEvent } from '../../src-shared/events';

export interface AutomationNotifierPorts {
  subscribe(listener: (event: ChangeEvent) => void): () => void;
  /** Whether a Cairn window has the focus (the in-app notice is enough then). */
  isFocused(): boolean;
  show(notification: { title: string; body: string; onClick: () => void }): void;
  focusApp(): void;
}

const TITLES: Readonly<Record<string, string>> = {
  automation_finished: 'Scheduled task finished',
  automation_waiting: 'A scheduled task needs your answer',
  automation_paused: 'A scheduled task was paused',
  automation_missed: 'A scheduled task missed its run',
  automation_reminder: 'Reminder',
};

/**
 * An OS notification for what automations tell the person (a run finished or needs an answer, a
 * task paused or missed, a reminder) while no Cairn window is focused — or none is open at all, the
 * app living in the tray. The host's own notice (host.notice) carries the words.
 */
export function notifyAutomations(ports: AutomationNotifierPorts): () => void {
  return ports.subscribe((event) => {
    if (event.kind !== 'host.notice') return;
    const title = TITLES[event.code];
    if (title === undefined || ports.isFocused()) return;
    ports.show({ title, body: event.message, onClick: () => ports.focusApp() });
  });
}
