import { isCompactionRequestNotice } from '../../../src-shared/compaction-model';
import { fail, ok, type Outcome } from '../../../src-shared/errors';
import type { TurnSummary } from '../../../src-shared/model';
import type { Stores } from '../../storage/stores';
import type { EventBus } from '../ports/event-bus';
import type { Clock, Ids } from '../ports/ports';
import type { AdmissionGate } from '../lifecycle/admission-gate';
import type { RunExecutor } from '../turns/run-executor';
import { openTurn, turnAndSessionEvents } from '../turns/run-lifecycle';

/** The text of a "Compact now" turn (what its request notice says). */
export const COMPACT_NOW_TEXT = 'Compact the conversation now';

export interface CompactNowDeps {
  readonly stores: Stores;
  readonly bus: EventBus;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly admission: AdmissionGate;
  /** Runs the compaction turn (on the compaction backend, `compaction-runtime.ts`). */
  readonly executor: Pick<RunExecutor, 'launch'>;
}

/** The runtime's compaction, with Compact now (built once the executor is). */
export interface CompactNow {
  compactNow(
    sessionId: string,
  ): Outcome<
    { turn: TurnSummary },
    'host_draining' | 'not_found' | 'operation_unavailable' | 'session_archived' | 'session_busy' | 'storage_damaged'
  >;
}

/** "Compact now": starts a compaction turn in the session; its run summarises the older turns. */
export function compactNow(
  deps: CompactNowDeps,
  sessionId: string,
): Outcome<
  { turn: TurnSummary },
  'host_draining' | 'not_found' | 'operation_unavailable' | 'session_archived' | 'session_busy' | 'storage_damaged'
> {
  const { stores } = deps;
  const session = stores.sessions.get(sessionId);
  if (session === null) return fail('not_found', 'That session does not exist. It may have been deleted.');
  if (session.archived) return fail('session_archived', 'This session is archived. Unarchive it to compact it.');
  const refused = deps.admission.refusal();
  if (refused !== null) return refused;
  if (stores.turns.activeTurn(sessionId) !== null)
    return fail('session_busy', 'This session is working on a turn. Compact it once the turn has ended.');
  if (!hasSomethingToSummarise(stores, sessionId))
    return fail('operation_unavailable', 'There is nothing new to summarise in this session yet.');
  const turnId = `compaction-${deps.ids.next('summary')}`;
  const runId = deps.ids.next('run');
  const events = stores.transaction(() => {
    const now = deps.clock.now();
    openTurn(
      stores,
      { sessionId, turnId, origin: 'compaction', text: COMPACT_NOW_TEXT, maxSteps: 1, runId, goalId: null },
      { origin: 'compaction', goalId: null },
      now,
    );
    const item = stores.transcript.append(
      {
        sessionId,
        itemId: deps.ids.next('item'),
        turnId,
        runId,
        kind: 'notice',
        text: 'You asked to compact the conversation',
        state: 'final',
        data: { compactionRequested: true },
        now,
      },
      stores.sessions.reservePositions(sessionId, 1),
    );
    stores.sessions.touch(sessionId, now);
    return [{ kind: 'transcript.appended' as const, item }, ...turnAndSessionEvents(stores, sessionId, turnId)];
  });
  for (const event of events) deps.bus.publish(event);
  deps.executor.launch({ sessionId, turnId, runId, kind: 'initial' }, null);
  const turn = stores.turns.getTurn(sessionId, turnId);
  if (turn === null) throw new Error('The compaction turn vanished');
  return ok({ turn });
}

/** Whether the transcript has a message the model sees after the newest summary. */
function hasSomethingToSummarise(stores: Stores, sessionId: string): boolean {
  const after = stores.summaries.latest(sessionId)?.lastPosition ?? -1;
  const newest = stores.transcript.page(sessionId, null, 50);
  return newest.some(
    (item) =>
      item.position > after &&
      item.kind !== 'notice' &&
      item.kind !== 'proposal' &&
      !isCompactionRequestNotice(item.data),
  );
}
