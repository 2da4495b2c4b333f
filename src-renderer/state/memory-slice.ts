import type { ChangeEvent } from '../../src-shared/events';
import type { MemoryRecord } from '../../src-shared/memory-model';
import type { SliceCreator } from './app-state';
import { deferredActions } from './deferred-actions';

export type MemoryList =
  | { readonly state: 'idle' | 'loading' }
  | { readonly state: 'ready'; readonly memories: readonly MemoryRecord[] }
  /** Memory unavailable (its file could not be opened), or the read failed: the message says which. */
  | { readonly state: 'failed'; readonly message: string };

/** Settings → Memory: what the agent remembers, for the person to read, correct and delete. */
export interface MemorySlice {
  readonly memoryList: MemoryList;
  loadMemories(): Promise<void>;
  /** Saves an edit made at `expectedRevision`; false (with the reason shown) when it was refused. */
  updateMemory(memoryId: string, text: string, expectedRevision: number): Promise<boolean>;
  removeMemory(memoryId: string, expectedRevision: number): Promise<void>;
  /** Keeps an open list current when memories change elsewhere (the agent remembered something). */
  noteMemoryEvents(batch: readonly ChangeEvent[]): void;
}

/** Editing and deleting a memory: their bodies load on the first call (memory-actions). */
export type MemoryActions = Pick<MemorySlice, 'updateMemory' | 'removeMemory'>;

export const createMemorySlice: SliceCreator<MemorySlice> = (set, get, deps) => ({
  memoryList: { state: 'idle' },

  async loadMemories() {
    if (get().memoryList.state !== 'ready') set({ memoryList: { state: 'loading' } });
    const outcome = await deps.link.invoke('memory.list', {});
    set({
      memoryList: outcome.ok
        ? { state: 'ready', memories: outcome.result.memories }
        : { state: 'failed', message: outcome.error.message },
    });
  },

  ...deferredActions<MemoryActions>({ updateMemory: true, removeMemory: true }, () =>
    import('./memory-actions').then((module) => module.createMemoryActions(set, get, deps)),
  ),

  noteMemoryEvents(batch) {
    if (get().memoryList.state !== 'ready') return;
    if (batch.some((event) => event.kind === 'memory.changed' || event.kind === 'memory.removed'))
      void get().loadMemories();
  },
});
