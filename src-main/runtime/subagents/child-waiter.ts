import { isActiveStatus, type RunStatus } from '../../../src-shared/model';
import type { Stores } from '../../storage/stores';
import type { EventBus } from '../ports/event-bus';

/** What a parent learns about a child: its status now, and its final report once it has finished. */
export interface ChildOutcome {
  readonly childSessionId: string;
  /** `removed`: the person deleted the child's session (its work was stopped first). */
  readonly status: RunStatus | 'not_started' | 'removed';
  /** Why its latest run ended (e.g. `parent_stopped`, `app_restarted`), null while it works. */
  readonly terminalReason: string | null;
  /** The child's last answer in its latest turn; null while it still works. */
  readonly report: string | null;
}

const REPORT_LIMIT = 20_000;

export function childOutcome(stores: Stores, childSessionId: string): ChildOutcome {
  if (stores.sessions.get(childSessionId) === null)
    return { childSessionId, status: 'removed', terminalReason: 'session_removed', report: null };
  const latest = stores.turns.latestTurn(childSessionId);
  if (latest === null) return { childSessionId, status: 'not_started', terminalReason: null, report: null };
  const settled = !isActiveStatus(latest.status);
  return {
    childSessionId,
    status: latest.status,
    terminalReason: settled ? latest.latestRun.terminalReason : null,
    report: settled ? childReport(stores, childSessionId, latest.turnId) : null,
  };
}

/** The text of the child's last assistant message in a turn, or null when it said nothing. */
export function childReport(stores: Stores, childSessionId: string, turnId: string): string | null {
  const items = stores.transcript.page(childSessionId, null, 100);
  const last = items.filter((item) => item.turnId === turnId && item.kind === 'assistant_message').at(-1);
  if (last === undefined) return null;
  return last.text.length > REPORT_LIMIT ? `${last.text.slice(0, REPORT_LIMIT)}…` : last.text;
}

/**
 * Waits until every child has settled (its latest turn is no longer running or waiting, or it has none), the
 * timeout passes, or the signal aborts; then says where each stands. Event-driven: it re-checks on
 * each turn change or removal of the children, never polls.
 */
export function waitForChildren(
  deps: { readonly stores: Stores; readonly bus: EventBus },
  childIds: readonly string[],
  timeoutMs: number | null,
  signal: AbortSignal,
): Promise<ChildOutcome[]> {
  const { stores, bus } = deps;
  const outcomes = () => childIds.map((childId) => childOutcome(stores, childId));
  // A child whose task never began (the host died between making it and starting it) will not move by
  // itself: it counts as settled, so the wait says so rather than lasting for ever.
  const allSettled = () =>
    outcomes().every(
      (outcome) => outcome.status === 'removed' || outcome.status === 'not_started' || !isActiveStatus(outcome.status),
    );
  return new Promise((resolve) => {
    if (allSettled() || signal.aborted) return resolve(outcomes());
    const watched = new Set(childIds);
    let timer: ReturnType<typeof setTimeout> | null = null;
    let finished = false;
    const done = () => {
      if (finished) return;
      finished = true;
      unsubscribe();
      signal.removeEventListener('abort', done);
      if (timer !== null) clearTimeout(timer);
      resolve(outcomes());
    };
    const unsubscribe = bus.subscribe((event) => {
      const sessionId =
        event.kind === 'turn.changed'
          ? event.turn.sessionId
          : event.kind === 'session.removed'
            ? event.sessionId
            : null;
      if (sessionId !== null && watched.has(sessionId) && allSettled()) queueMicrotask(done);
    });
    signal.addEventListener('abort', done, { once: true });
    if (timeoutMs !== null) timer = setTimeout(done, timeoutMs);
  });
}
