import type { AppState } from './app-state';

/**
 * Whether a session New session made in this window is still blank: its transcript is loaded and
 * empty, nothing runs, and the person has not named it, typed into it or attached anything. Such a
 * session is reused by the next New session and removed when the person leaves it, so clicking New
 * session never leaves empty "New session" entries behind.
 */
export function isBlankSession(state: AppState, sessionId: string): boolean {
  const session = state.sessions.byId[sessionId];
  const transcript = state.transcripts[sessionId];
  if (session === undefined || transcript === undefined || transcript.status !== 'ready') return false;
  return (
    transcript.itemIds.length === 0 &&
    Object.keys(transcript.turnsById).length === 0 &&
    session.titleSource === 'default' &&
    session.activity === 'idle' &&
    !session.archived &&
    state.readDraft(sessionId).trim() === '' &&
    (state.pendingAttachments[sessionId]?.length ?? 0) === 0
  );
}
