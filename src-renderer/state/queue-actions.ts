import type { SliceCreator } from './app-state';
import type { QueueActions } from './composer-slice';
import { applyQueuedMessage } from './reducers/queue-reducer';

/** The composer slice's edit and removal of queued follow-ups, loaded on the first call (see deferredActions). */
export const createQueueActions: SliceCreator<QueueActions> = (set, get, deps) => ({
  async editQueuedMessage(sessionId, messageId, text) {
    const trimmed = text.trim();
    if (trimmed === '') return false;
    const outcome = await deps.link.invoke('turn.message.edit', { sessionId, messageId, text: trimmed });
    if (!outcome.ok) {
      get().reportFailure(outcome.error);
      return false;
    }
    set((state) => ({ queues: applyQueuedMessage(state.queues, outcome.result.message) }));
    return true;
  },

  async removeQueuedMessage(sessionId, messageId) {
    const outcome = await deps.link.invoke('turn.message.remove', { sessionId, messageId });
    if (!outcome.ok) {
      get().reportFailure(outcome.error);
      return;
    }
    set((state) => ({ queues: applyQueuedMessage(state.queues, outcome.result.message) }));
  },
});
