import type { CodexThreadChoice, CodexThreadProblem } from '../../../../src-shared/codex-model';
import { fail, ok, type Outcome } from '../../../../src-shared/errors';
import type { Stores } from '../../../storage/stores';
import type { EventBus } from '../../ports/event-bus';
import type { Clock, Ids, Logger } from '../../ports/ports';
import { NEW_THREAD_MARKER } from './thread-summary';

export interface CodexThreadChoicesDeps {
  readonly stores: Pick<Stores, 'codexThreads' | 'transcript' | 'sessions' | 'transaction'>;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly bus: EventBus;
  readonly logger: Logger;
  /** Runs the failed turn again (on the same thread, or on the new one the choice asked for). */
  resume(sessionId: string, turnId: string): Outcome<unknown>;
}

/**
 * The person's answer to a Codex thread that could not be resumed. The choice is recorded first (so
 * a restart between the record and the new thread keeps it), then the failed turn runs again. Asking
 * again for what was already chosen changes nothing; a new thread, once chosen, is final.
 */
export interface CodexThreadChoices {
  problem(sessionId: string): CodexThreadProblem | null;
  choose(
    sessionId: string,
    threadId: string,
    choice: CodexThreadChoice,
  ): Outcome<{ threadProblem: CodexThreadProblem }, 'operation_conflict'>;
  /** The thread problem changed: clients hear of it. */
  announce(sessionId: string, problem: CodexThreadProblem | null): void;
  /** A new thread replaced the unresumable one in this run: the transcript says so where it happened. */
  markNewThread(run: { sessionId: string; turnId: string; runId: string }): void;
  /** A previous host's app-server of the session was stopped at start-up: the session's transcript says so. */
  markLeftoverStopped(sessionId: string, pid: number): void;
}

export function createCodexThreadChoices(deps: CodexThreadChoicesDeps): CodexThreadChoices {
  const { stores } = deps;
  const notice = (
    run: { sessionId: string; turnId: string; runId: string },
    text: string,
    data: Record<string, unknown>,
  ) => {
    const item = stores.transaction(() =>
      stores.transcript.append(
        { ...run, itemId: deps.ids.next('item'), kind: 'notice', text, state: 'final', data, now: deps.clock.now() },
        stores.sessions.reservePositions(run.sessionId, 1),
      ),
    );
    deps.bus.publish({ kind: 'transcript.appended', item });
  };
  const announce = (sessionId: string, problem: CodexThreadProblem | null) =>
    deps.bus.publish({ kind: 'codex.thread.changed', sessionId, threadProblem: problem });
  return {
    problem: (sessionId) => stores.codexThreads.problem(sessionId),
    choose(sessionId, threadId, choice) {
      const current = stores.codexThreads.problem(sessionId);
      if (current === null || current.threadId !== threadId) {
        return fail(
          'operation_conflict',
          'This session has no Codex thread waiting for that choice. Reload the session to see where it stands.',
        );
      }
      if (current.choice === 'new_thread') {
        if (choice === 'new_thread') return ok({ threadProblem: current });
        return fail(
          'operation_conflict',
          'A new Codex thread was already chosen for this session; the old one is no longer retried.',
        );
      }
      if (current.resolved) return ok({ threadProblem: current });
      const chosen = stores.codexThreads.choose(sessionId, threadId, choice, deps.clock.now());
      if (chosen === null)
        return fail('operation_conflict', 'This session has no Codex thread waiting for that choice.');
      announce(sessionId, chosen);
      const resumed = deps.resume(sessionId, chosen.turnId);
      // A turn already running again (a second click) or no longer resumable keeps the choice: the next turn acts on it.
      if (!resumed.ok)
        deps.logger.info('The Codex thread choice did not resume its turn', { sessionId, code: resumed.error.code });
      return ok({ threadProblem: chosen });
    },
    announce,
    markNewThread(run) {
      notice(run, NEW_THREAD_MARKER, { codexNewThread: true });
    },
    markLeftoverStopped(sessionId, pid) {
      const newest = stores.transcript.page(sessionId, null, 1)[0];
      if (newest === undefined) return;
      notice({ sessionId, turnId: newest.turnId, runId: newest.runId }, leftoverStoppedText(pid), {
        codexLeftoverStopped: { pid },
      });
    },
  };
}

export function leftoverStoppedText(pid: number): string {
  return `Cairn stopped a Codex app-server (pid ${pid}) that the previous run of the app left running, before starting a new one on this thread.`;
}
