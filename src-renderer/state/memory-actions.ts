import type { SliceCreator } from './app-state';
import type { MemoryActions } from './memory-slice';

/** Settings → Memory's edit and delete, loaded on the first call (see deferredActions). */
export const createMemoryActions: SliceCreator<MemoryActions> = (set, get, deps) => ({
  async updateMemory(memoryId, text, expectedRevision) {
    const outcome = await deps.link.invoke('memory.update', { memoryId, text, expectedRevision });
    if (!outcome.ok) get().showError(outcome.error.message);
    await get().loadMemories();
    return outcome.ok;
  },

  async removeMemory(memoryId, expectedRevision) {
    const outcome = await deps.link.invoke('memory.remove', { memoryId, expectedRevision });
    if (!outcome.ok) get().showError(outcome.error.message);
    await get().loadMemories();
  },
});
