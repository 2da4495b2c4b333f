import type { MemoryRecord } from '../../../src-shared/memory-model';

/**
 * The system prompt with the session's memories appended briefly (what context assembly calls, one
 * line): unchanged when there are none.
 */
export function withMemoryBrief(system: string, memories: readonly MemoryRecord[]): string {
  if (memories.length === 0) return system;
  const lines = memories.map(
    (memory) => `- ${memory.text.replace(/\s+/g, ' ').trim()}${memory.scope === 'global' ? ' (global)' : ''}`,
  );
  return `${system}\n\nWhat you remembered in earlier sessions (use recall to search for more; remember to add):\n${lines.join('\n')}`;
}
