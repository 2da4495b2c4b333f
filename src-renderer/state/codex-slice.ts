import type { CodexQuarantine, CodexThreadChoice, CodexThreadProblem } from '../../src-shared/codex-model';
import type { ChangeEvent } from '../../src-shared/events';
import type { SliceCreator } from './app-state';
import { deferredActions } from './deferred-actions';

export type CodexQuarantines = Readonly<Record<string, CodexQuarantine>>;
export type CodexThreadProblems = Readonly<Record<string, CodexThreadProblem>>;

/** Codex sessions whose old app-server could not be confirmed gone: read on open, then kept by `codex.quarantine.changed`. */
export interface CodexSlice {
  readonly codexQuarantines: CodexQuarantines;
  /** Codex sessions whose thread could not be resumed: read on open, then kept by `codex.thread.changed`. */
  readonly codexThreadProblems: CodexThreadProblems;
  /** The person's choice for a thread that could not be resumed; the host records it, then runs the turn again. */
  chooseCodexThread(sessionId: string, threadId: string, choice: CodexThreadChoice): Promise<void>;
  loadCodexStatus(sessionId: string): Promise<void>;
  noteCodexEvents(batch: readonly ChangeEvent[]): void;
  /**
   * Force stop: kills again a Codex app-server that could not be confirmed gone (the quarantine notice,
   * or a turn that failed on it); the quarantine ends when the host confirms it gone. Given a turn, that
   * turn then runs again.
   */
  forceStopCodex(sessionId: string, resumeTurnId?: string): Promise<void>;
}

/** The actions of the quarantine and thread notices: their bodies load on the first call (codex-actions). */
export type CodexActions = Pick<CodexSlice, 'forceStopCodex' | 'chooseCodexThread'>;

/** Applies a batch of events: the newest word on each session wins; a removed session's goes. */
export function reduceCodexQuarantines(state: CodexQuarantines, batch: readonly ChangeEvent[]): CodexQuarantines {
  let next = state;
  for (const event of batch) {
    const sessionId =
      event.kind === 'codex.quarantine.changed' || event.kind === 'session.removed' ? event.sessionId : null;
    if (sessionId === null) continue;
    const quarantine = event.kind === 'codex.quarantine.changed' ? event.quarantine : null;
    if (quarantine !== null) next = { ...next, [sessionId]: quarantine };
    else if (next[sessionId] !== undefined) {
      const { [sessionId]: _gone, ...rest } = next;
      next = rest;
    }
  }
  return next;
}

/** Applies a batch of events to the thread problems: the newest word on each session wins; a removed session's goes. */
export function reduceCodexThreadProblems(
  state: CodexThreadProblems,
  batch: readonly ChangeEvent[],
): CodexThreadProblems {
  let next = state;
  for (const event of batch) {
    const sessionId =
      event.kind === 'codex.thread.changed' || event.kind === 'session.removed' ? event.sessionId : null;
    if (sessionId === null) continue;
    const problem = event.kind === 'codex.thread.changed' ? event.threadProblem : null;
    if (problem !== null) next = { ...next, [sessionId]: problem };
    else if (next[sessionId] !== undefined) {
      const { [sessionId]: _gone, ...rest } = next;
      next = rest;
    }
  }
  return next;
}

export const createCodexSlice: SliceCreator<CodexSlice> = (set, get, deps) => ({
  codexQuarantines: {},
  codexThreadProblems: {},

  async loadCodexStatus(sessionId) {
    const outcome = await deps.link.invoke('codex.status', { sessionId });
    if (!outcome.ok) return;
    const { quarantine, threadProblem } = outcome.result;
    set((state) => ({
      codexQuarantines: reduceCodexQuarantines(state.codexQuarantines, [
        { seq: 0, hostEpoch: '', kind: 'codex.quarantine.changed', sessionId, quarantine },
      ]),
      codexThreadProblems: reduceCodexThreadProblems(state.codexThreadProblems, [
        { seq: 0, hostEpoch: '', kind: 'codex.thread.changed', sessionId, threadProblem },
      ]),
    }));
  },

  noteCodexEvents(batch) {
    const next = reduceCodexQuarantines(get().codexQuarantines, batch);
    if (next !== get().codexQuarantines) set({ codexQuarantines: next });
    const problems = reduceCodexThreadProblems(get().codexThreadProblems, batch);
    if (problems !== get().codexThreadProblems) set({ codexThreadProblems: problems });
  },
  ...deferredActions<CodexActions>({ forceStopCodex: true, chooseCodexThread: true }, () =>
    import('./codex-actions').then((module) => module.createCodexActions(set, get, deps)),
  ),
});
