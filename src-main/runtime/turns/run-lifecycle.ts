import type { ChangeEventBody } from '../../../src-shared/events';
import type { InteractionRequest } from '../../../src-shared/interaction-model';
import type { RunKind, RunStatus, RunSummary, TurnOrigin, TurnSummary } from '../../../src-shared/model';
import { isActiveStatus } from '../../../src-shared/model';
import type { Stores } from '../../storage/stores';

/**
 * The one owner of a run's life in the record (ARCHITECTURE.md §4, invariant 2): opening a turn's
 * first run and its later ones, suspending a run on a question, and ending it — its status, its
 * `run_opened` / `run_waiting` / `run_terminal` ledger events, and the change events that tell
 * clients. Nothing else writes those; `run-lifecycle.test.ts` fails if anything does.
 *
 * Every function here writes inside the caller's transaction (a run's life changes together with
 * what caused it: an answer, a Stop, the output a run leaves) and returns what to publish once that
 * transaction commits.
 */

export interface RunIdentity {
  readonly sessionId: string;
  readonly turnId: string;
  readonly runId: string;
}

export interface RunEnding {
  readonly status: Exclude<RunStatus, 'running' | 'waiting'>;
  readonly terminalReason: string;
  /** The paired device whose Stop ended it (its name then); absent for the desktop and every other ending. */
  readonly stoppedFrom?: string;
  readonly errorCode?: string;
  readonly errorMessage?: string;
}

export interface NewTurnRecord {
  readonly sessionId: string;
  readonly turnId: string;
  readonly origin: TurnOrigin;
  readonly text: string;
  readonly maxSteps: number;
  readonly runId: string;
  readonly goalId?: string | null;
}

/** What `run_opened` says beyond the run's kind: where a first run came from, what a later one continues. */
export type RunOpening = Readonly<Record<string, unknown>>;

/** Writes a new turn with its first run, `running`, and the run's `run_opened` event. */
export function openTurn(stores: Stores, turn: NewTurnRecord, opening: RunOpening, now: number): TurnSummary {
  const created = stores.turns.insertTurn({ ...turn, now });
  stores.ledger.append(turn.runId, [{ kind: 'run_opened', payload: { kind: 'initial', ...opening } }], now);
  return created;
}

/** Opens the next run of a turn (`continuation` after an answer, `resume` after an end), `running`. */
export function openNextRun(
  stores: Stores,
  run: RunIdentity & { kind: Exclude<RunKind, 'initial'> },
  opening: RunOpening,
  now: number,
): RunSummary {
  const opened = stores.turns.openRun({ ...run, now });
  stores.ledger.append(run.runId, [{ kind: 'run_opened', payload: { kind: run.kind, ...opening } }], now);
  return opened;
}

/**
 * The run waits for the person on a recorded interaction: `interaction_requested` and `run_waiting`,
 * the status `waiting`, its streamed text final. Not an end: the answer ends it and continues the
 * turn in a new run.
 */
export function suspendRun(
  stores: Stores,
  run: RunIdentity,
  waitsOn: { interactionId: string; request: InteractionRequest },
  now: number,
): void {
  const { interactionId, request } = waitsOn;
  stores.transcript.finalizeRun(run.runId);
  stores.ledger.append(
    run.runId,
    [
      { kind: 'interaction_requested', payload: { interactionId, request } },
      { kind: 'run_waiting', payload: { interactionId } },
    ],
    now,
  );
  stores.turns.setRunStatus(run.runId, { status: 'waiting', terminalReason: null, now });
  stores.sessions.touch(run.sessionId, now);
}

/**
 * Ends a run: its final status and its one `run_terminal` event, its streamed text final. A run that
 * has already ended (or does not exist) is left alone and null returned, so no run ends twice.
 * Returns the events of what it wrote; the turn's and session's (`turnAndSessionEvents`) are the
 * caller's to add once its transaction's last write is done.
 */
export function endRun(stores: Stores, run: RunIdentity, ending: RunEnding, now: number): ChangeEventBody[] | null {
  const current = stores.turns.getRun(run.runId);
  if (current === null || !isActiveStatus(current.status)) return null;
  const { status, terminalReason } = ending;
  const failure = { errorCode: ending.errorCode ?? null, errorMessage: ending.errorMessage ?? null };
  stores.turns.setRunStatus(run.runId, {
    status,
    terminalReason,
    ...failure,
    ...(ending.stoppedFrom === undefined ? {} : { stoppedFrom: ending.stoppedFrom }),
    now,
  });
  stores.ledger.append(run.runId, [{ kind: 'run_terminal', payload: { status, terminalReason, ...failure } }], now);
  const finalized = stores.transcript.finalizeRun(run.runId);
  stores.sessions.touch(run.sessionId, now);
  return finalized.length > 0 ? [{ kind: 'transcript.finalized', sessionId: run.sessionId, itemIds: finalized }] : [];
}

/** The events that tell clients a turn and its session changed; read inside the writing transaction. */
export function turnAndSessionEvents(stores: Stores, sessionId: string, turnId: string): ChangeEventBody[] {
  const events: ChangeEventBody[] = [];
  const turn: TurnSummary | null = stores.turns.getTurn(sessionId, turnId);
  if (turn !== null) events.push({ kind: 'turn.changed', turn });
  const session = stores.sessions.get(sessionId);
  if (session !== null) events.push({ kind: 'session.changed', session });
  return events;
}
