/**
 * The unsent text in each composer, kept beside the store's state rather than in it. A keystroke
 * writes here and tells no one: the composer showing the text already has it, and nothing else draws
 * a draft. In the state, every keystroke ran every subscribed selector of the page (the transcript's
 * rows among them) while a session streamed. Text put into a composer from elsewhere (a follow-up Stop
 * cancelled, a message that could not be sent, a / command chosen, an MCP prompt) is told to the
 * composer watching that session.
 */
export interface DraftBook {
  read(sessionId: string): string;
  /** What the person typed: their composer shows it already, so no one is told. */
  type(sessionId: string, text: string): void;
  /** Text put into a session's composer from elsewhere: the composer watching it shows it. */
  replace(sessionId: string, text: string): void;
  /** Calls `listener` whenever the session's draft is replaced; returns the unsubscribe. */
  watch(sessionId: string, listener: (text: string) => void): () => void;
}

export function createDraftBook(): DraftBook {
  const drafts = new Map<string, string>();
  const watchers = new Map<string, Set<(text: string) => void>>();
  const keep = (sessionId: string, text: string) => {
    if (text === '') drafts.delete(sessionId);
    else drafts.set(sessionId, text);
  };
  return {
    read: (sessionId) => drafts.get(sessionId) ?? '',
    type: keep,
    replace(sessionId, text) {
      keep(sessionId, text);
      for (const listener of watchers.get(sessionId) ?? []) listener(text);
    },
    watch(sessionId, listener) {
      const forSession = watchers.get(sessionId) ?? new Set();
      forSession.add(listener);
      watchers.set(sessionId, forSession);
      return () => {
        forSession.delete(listener);
        if (forSession.size === 0 && watchers.get(sessionId) === forSession) watchers.delete(sessionId);
      };
    },
  };
}
