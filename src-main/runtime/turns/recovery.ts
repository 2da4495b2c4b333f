import type { Stores } from '../../storage/stores';
import type { Clock, Logger } from '../ports/ports';
import { endRun } from './run-lifecycle';

export interface RecoveryReport {
  readonly interruptedRuns: number;
}

export const APP_RESTARTED = 'app_restarted';

/**
 * Runs before the host serves anything: every run the record still calls `running` died with the
 * previous host, so it is closed as `interrupted` / `app_restarted`. Resume is a new run, never a
 * silent retry. Waiting runs hold nothing in memory and stay waiting. A question asked inside a
 * running tool call (an MCP server's elicitation) died with that call: it is closed as `expired`.
 */
export function recoverInterruptedRuns(stores: Stores, clock: Clock, logger: Logger): RecoveryReport {
  const running = stores.turns.runningRuns();
  stores.transaction(() => {
    const now = clock.now();
    for (const run of running) {
      for (const live of stores.interactions
        .pendingOfSession(run.sessionId)
        .filter((pending) => pending.runId === run.runId)) {
        stores.interactions.settle(live.interactionId, {
          status: 'closed',
          answer: null,
          answerSecretId: null,
          closeReason: 'expired',
          now,
        });
        stores.ledger.append(
          run.runId,
          [
            {
              kind: 'interaction_answered',
              payload: { interactionId: live.interactionId, status: 'closed', closeReason: 'expired' },
            },
          ],
          now,
        );
      }
      // Nobody listens yet: what the end changed is read by clients when they connect.
      endRun(stores, run, { status: 'interrupted', terminalReason: APP_RESTARTED }, now);
    }
  });
  if (running.length > 0) logger.info('Marked runs interrupted by the previous shutdown', { count: running.length });
  return { interruptedRuns: running.length };
}
