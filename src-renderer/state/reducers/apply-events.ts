import type { ChangeEvent } from '../../../src-shared/events';
import type { GoalsState } from './goals-reducer';
import { reduceGoalEvent } from './goals-reducer';
import type { InteractionsState } from './interactions-reducer';
import { reduceInteractionEvent } from './interactions-reducer';
import type { QueuesState } from './queue-reducer';
import { reduceQueueEvent } from './queue-reducer';
import type { SessionsState } from './sessions-reducer';
import { reduceSessionEvent } from './sessions-reducer';
import type { RunProgressState } from './run-progress-reducer';
import { reduceRunProgressEvent } from './run-progress-reducer';
import type { ShellState } from './shell-reducer';
import { reduceShellEvent } from './shell-reducer';
import type { TranscriptsState } from './transcript-reducer';
import { reduceTranscriptEvent } from './transcript-reducer';

/** The part of the store that host events change. */
export interface RecordState {
  readonly sessions: SessionsState;
  readonly transcripts: TranscriptsState;
  readonly queues: QueuesState;
  readonly interactions: InteractionsState;
  readonly goals: GoalsState;
  readonly shell: ShellState;
  readonly runProgress: RunProgressState;
}

/**
 * Merges runs of deltas to the same item into one (their texts joined, the last length kept), so a
 * frame's worth of streaming costs one update per item however fast the host sends.
 */
export function coalesceDeltas(events: readonly ChangeEvent[]): ChangeEvent[] {
  const merged: ChangeEvent[] = [];
  for (const event of events) {
    const previous = merged.at(-1);
    if (
      event.kind === 'transcript.delta' &&
      previous?.kind === 'transcript.delta' &&
      previous.itemId === event.itemId
    ) {
      merged[merged.length - 1] = { ...event, text: previous.text + event.text };
    } else {
      merged.push(event);
    }
  }
  return merged;
}

/** Applies a batch of host events, in order, to the record part of the store. Pure. */
export function applyChangeEvents(state: RecordState, events: readonly ChangeEvent[]): RecordState {
  let { sessions, transcripts, queues, interactions, goals, shell, runProgress } = state;
  for (const event of coalesceDeltas(events)) {
    sessions = reduceSessionEvent(sessions, event);
    transcripts = reduceTranscriptEvent(transcripts, event);
    queues = reduceQueueEvent(queues, event);
    interactions = reduceInteractionEvent(interactions, event);
    goals = reduceGoalEvent(goals, event);
    shell = reduceShellEvent(shell, event);
    runProgress = reduceRunProgressEvent(runProgress, event);
  }
  const unchanged =
    sessions === state.sessions &&
    transcripts === state.transcripts &&
    queues === state.queues &&
    interactions === state.interactions &&
    goals === state.goals &&
    shell === state.shell &&
    runProgress === state.runProgress;
  return unchanged ? state : { sessions, transcripts, queues, interactions, goals, shell, runProgress };
}
