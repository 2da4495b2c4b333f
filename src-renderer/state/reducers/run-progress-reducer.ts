import type { ChangeEvent } from '../../../src-shared/events';
import type { LiveRunProgress } from '../../../src-shared/run-progress';

/** By session id (at most one run per session runs at a time). Only runs that wait on their provider right now have an entry. */
export type RunProgressState = Readonly<Record<string, LiveRunProgress>>;

export const NO_PROGRESS: RunProgressState = {};

/**
 * Keeps the live wait of each session's run: set by `run.progress`, cleared when the provider answers,
 * when the run stops running (a `turn.changed` that is no longer this run running), or the session goes.
 */
export function reduceRunProgressEvent(state: RunProgressState, event: ChangeEvent): RunProgressState {
  switch (event.kind) {
    case 'run.progress':
      if (event.progress === null) return without(state, event.sessionId);
      return { ...state, [event.sessionId]: { turnId: event.turnId, runId: event.runId, progress: event.progress } };
    case 'turn.changed': {
      const live = state[event.turn.sessionId];
      if (live === undefined || live.turnId !== event.turn.turnId) return state;
      const stillWaiting = event.turn.status === 'running' && event.turn.latestRun.runId === live.runId;
      return stillWaiting ? state : without(state, event.turn.sessionId);
    }
    case 'session.removed':
      return without(state, event.sessionId);
    default:
      return state;
  }
}

/** A session's live wait as its snapshot (session.get) says it is now. */
export function applySnapshotProgress(
  state: RunProgressState,
  sessionId: string,
  live: LiveRunProgress | null,
): RunProgressState {
  return live === null ? without(state, sessionId) : { ...state, [sessionId]: live };
}

function without(state: RunProgressState, sessionId: string): RunProgressState {
  if (state[sessionId] === undefined) return state;
  const next = { ...state };
  delete next[sessionId];
  return next;
}
