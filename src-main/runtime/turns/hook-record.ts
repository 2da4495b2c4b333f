import type { ChangeEventBody } from '../../../src-shared/events';
import type { Stores } from '../../storage/stores';
import type { EventBus } from '../ports/event-bus';
import type { Clock, Ids } from '../ports/ports';
import { turnAndSessionEvents } from './run-lifecycle';
import { hookNotice } from '../hooks/hook-notice';
import type { HookRunReport } from '../hooks/hook-service';

export interface HookRecordDeps {
  readonly stores: Stores;
  readonly bus: EventBus;
  readonly clock: Clock;
  readonly ids: Ids;
}

/**
 * A hook's run recorded outside a live run's recorder (the run waits for the person, or has ended):
 * the notice and its `hook_run` ledger event in one transaction, on the given run, or on the
 * session's latest run when none is given. Nothing when the session has no run to attach it to.
 */
export function appendHookRun(
  deps: HookRecordDeps,
  sessionId: string,
  report: HookRunReport,
  run?: { readonly turnId: string; readonly runId: string },
): void {
  const { stores, bus, clock, ids } = deps;
  const latest = run ?? latestRunOf(stores, sessionId);
  if (latest === null || stores.sessions.get(sessionId) === null) return;
  const { turnId, runId } = latest;
  const { text, data } = hookNotice(report);
  const events = stores.transaction((): ChangeEventBody[] => {
    const now = clock.now();
    const item = stores.transcript.append(
      { sessionId, itemId: ids.next('item'), turnId, runId, kind: 'notice', text, state: 'final', data, now },
      stores.sessions.reservePositions(sessionId, 1),
    );
    stores.ledger.append(runId, [{ kind: 'hook_run', payload: { itemId: item.itemId, ...data } }], now);
    return [{ kind: 'transcript.appended', item }, ...turnAndSessionEvents(stores, sessionId, turnId)];
  });
  for (const event of events) bus.publish(event);
}

function latestRunOf(stores: Stores, sessionId: string): { turnId: string; runId: string } | null {
  const turn = stores.turns.latestTurn(sessionId);
  return turn === null ? null : { turnId: turn.turnId, runId: turn.latestRun.runId };
}
