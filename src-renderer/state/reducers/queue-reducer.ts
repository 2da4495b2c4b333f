import type { ChangeEvent } from '../../../src-shared/events';
import type { QueuedMessage } from '../../../src-shared/model';

/** Follow-ups still waiting to start, per loaded session, oldest first. */
export type QueuesState = Readonly<Record<string, readonly QueuedMessage[]>>;

export function setQueue(queues: QueuesState, sessionId: string, messages: readonly QueuedMessage[]): QueuesState {
  return { ...queues, [sessionId]: messages.filter((message) => message.state === 'queued') };
}

/** A message's new state: a queued one is added or updated; a started or cancelled one leaves the queue. */
export function applyQueuedMessage(queues: QueuesState, message: QueuedMessage): QueuesState {
  const current = queues[message.sessionId];
  if (current === undefined) return queues;
  const without = current.filter((entry) => entry.messageId !== message.messageId);
  if (message.state !== 'queued') {
    return without.length === current.length ? queues : { ...queues, [message.sessionId]: without };
  }
  const next = [...without, message].sort((a, b) => a.createdAt - b.createdAt);
  return { ...queues, [message.sessionId]: next };
}

export function reduceQueueEvent(queues: QueuesState, event: ChangeEvent): QueuesState {
  switch (event.kind) {
    case 'queue.changed':
      return applyQueuedMessage(queues, event.message);
    case 'session.removed': {
      if (queues[event.sessionId] === undefined) return queues;
      const next = { ...queues };
      delete next[event.sessionId];
      return next;
    }
    default:
      return queues;
  }
}
