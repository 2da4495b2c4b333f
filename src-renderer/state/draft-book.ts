import type { DraftStorage } from '../platform/draft-storage';

/**
 * The unsent text in each composer, kept beside the store's state rather than in it. A keystroke
 * writes here and tells no one: the composer showing the text already has it, and nothing else draws
 * a draft. In the state, every keystroke ran every subscribed selector of the page (the transcript's
 * rows among them) while a session streamed. Text put into a composer from elsewhere (a follow-up Stop
 * cancelled, a message that could not be sent, a / command chosen, an MCP prompt) is told to the
 * composer watching that session. Each draft is also kept in the window's storage (`storage`), so a
 * reload — the page reloads itself after the host came back, say — does not lose it.
 */
export interface DraftBook {
  read(sessionId: string): string;
  /** What the person typed: their composer shows it already, so no one is told. */
  type(sessionId: string, text: string): void;
  /** Text put into a session's composer from elsewhere: the composer watching it shows it. */
  replace(sessionId: string, text: string): void;
  /** A removed session's draft goes, from memory and from the window's storage (an archived one keeps it). */
  forget(sessionId: string): void;
  /** Calls `listener` whenever the session's draft is replaced; returns the unsubscribe. */
  watch(sessionId: string, listener: (text: string) => void): () => void;
}

/** The window storage's key of a session's composer draft. */
export const composerDraftKey = (sessionId: string) => `cairn.composer-draft.${sessionId}`;

export function createDraftBook(storage?: DraftStorage): DraftBook {
  const drafts = new Map<string, string>();
  const watchers = new Map<string, Set<(text: string) => void>>();
  const keep = (sessionId: string, text: string) => {
    drafts.set(sessionId, text);
    if (text === '') storage?.remove(composerDraftKey(sessionId));
    else storage?.write(composerDraftKey(sessionId), text);
  };
  return {
    read(sessionId) {
      const held = drafts.get(sessionId);
      if (held !== undefined) return held;
      const kept = storage?.read(composerDraftKey(sessionId)) ?? '';
      drafts.set(sessionId, kept);
      return kept;
    },
    type: keep,
    replace(sessionId, text) {
      keep(sessionId, text);
      for (const listener of watchers.get(sessionId) ?? []) listener(text);
    },
    forget(sessionId) {
      drafts.delete(sessionId);
      storage?.remove(composerDraftKey(sessionId));
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
