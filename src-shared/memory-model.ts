/** Long-term memory: short notes the agent (or the person) keeps across sessions. */
export const MEMORY_SCOPES = ['workspace', 'global'] as const;
export type MemoryScope = (typeof MEMORY_SCOPES)[number];

/** Longest memory text, in characters. */
export const MAX_MEMORY_TEXT = 2000;

export interface MemoryRecord {
  readonly memoryId: string;
  readonly text: string;
  /** `workspace` memories belong to one workspace folder; `global` ones to every session. */
  readonly scope: MemoryScope;
  /** The workspace folder of a `workspace` memory; null for a global one. */
  readonly workspacePath: string | null;
  /** The session and turn that wrote it (null when the person wrote it, or the session is gone). */
  readonly sourceSessionId: string | null;
  readonly sourceTurnId: string | null;
  /** Who last changed the text: the agent (remember) or the person (Memory view). */
  readonly editedBy: 'agent' | 'person';
  readonly revision: number;
  readonly createdAt: number;
  readonly updatedAt: number;
}
