import type { ChangeEvent } from '../../src-shared/events';
import type { InteractionRecord } from '../../src-shared/interaction-model';

export interface NotifierPorts {
  subscribe(listener: (event: ChangeEvent) => void): () => void;
  /** Whether a Cairn window has the focus (then no notification is needed). */
  isFocused(): boolean;
  show(notification: { title: string; body: string; onClick: () => void }): void;
  /** Brings the window forward (clicking the notification). */
  focusApp(): void;
}

/** What the notification says about a new question, form or approval. */
export function describeInteraction(interaction: InteractionRecord): { title: string; body: string } {
  const request = interaction.request;
  switch (request.kind) {
    case 'question':
      return {
        title: 'Cairn needs your answer',
        body: request.questions[0]?.prompt ?? 'An agent asked you a question.',
      };
    case 'form':
      return { title: 'Cairn needs some details', body: request.title };
    case 'permission':
      return { title: 'Cairn asks for permission', body: request.summary };
    case 'network':
      return { title: 'Cairn asks for permission', body: `Allow network to ${request.host}` };
  }
}

/**
 * Shows an OS notification when an agent asks something while no Cairn window is focused, once per
 * interaction. Returns a function that stops listening.
 */
export function notifyPendingInteractions(ports: NotifierPorts): () => void {
  const notified = new Set<string>();
  return ports.subscribe((event) => {
    if (event.kind !== 'interaction.changed' || event.interaction.status !== 'pending') return;
    if (notified.has(event.interaction.interactionId) || ports.isFocused()) return;
    notified.add(event.interaction.interactionId);
    ports.show({ ...describeInteraction(event.interaction), onClick: () => ports.focusApp() });
  });
}
