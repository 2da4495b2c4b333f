/** Finding what was said, and a session's instructions and model settings (issue 19). */

/** One piece of a search snippet: text, and whether it is what matched. */
export interface SnippetPart {
  readonly text: string;
  readonly hit: boolean;
}

/** A message that matches a search, with the words around the match. */
export interface MessageSearchHit {
  readonly sessionId: string;
  readonly sessionTitle: string;
  readonly archived: boolean;
  readonly itemId: string;
  readonly position: number;
  readonly kind: 'user_message' | 'assistant_message';
  readonly snippet: readonly SnippetPart[];
  readonly createdAt: number;
}

export const REASONING_EFFORTS = ['low', 'medium', 'high'] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

/** Settings a model request carries where the provider supports them; absent means the provider's default. */
export interface ModelSettings {
  readonly temperature?: number;
  readonly maxOutputTokens?: number;
  readonly reasoningEffort?: ReasoningEffort;
}

export const MAX_INSTRUCTIONS_LENGTH = 8000;
