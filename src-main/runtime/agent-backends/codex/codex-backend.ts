import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CodexQuarantine } from '../../../../src-shared/codex-model';
import type { AgentEvent, AgentRunInput } from '../agent-backend';
import { AgentBackendError } from '../agent-backend';
import { createProcessQuarantine, type EndableProcess } from '../native/process-quarantine';
import { RecordedProcess } from '../native/recorded-process';
import { createAppServerStarter, launchKey } from './app-server-start';
import { CODEX_BACKEND_ID, type CodexBackend, type CodexBackendDeps } from './codex-backend-deps';
import { startThreadCompaction } from './codex-compaction';
import { listCodexModels } from './codex-models';
import { appServerLaunch, codexHomeOf, codexPolicies } from './codex-config';
import type { CodexContext, RunRef, SessionState } from './codex-session-state';
import { CommandOutput } from './command-output';
import { CODEX_SHELL_TOOL, EventMapper } from './event-mapper';
import { clearThreadGoal, continueThreadGoal, goalUpdateOf, setThreadGoal } from './goal-mirror';
import { answerInHistory, codexResponse, declineReason, type PersonAnswer } from './interaction-bridge';
import { DEFAULT_BOUNDS, type CodexBounds } from './live-app-server';
import { createTurnReader } from './turn-reader';
import { TurnProcesses } from './turn-processes';
import { startCodexTurn } from './turn-start';
import { DEFAULT_WARM_LIMITS, WarmAppServers } from './warm-app-servers';

export { CODEX_BACKEND_ID, type CodexBackend, type CodexBackendDeps, type CodexTarget } from './codex-backend-deps';

/**
 * Codex as a native AgentBackend: one `codex app-server` per session, kept between turns (stopped
 * when idle, or as the least recently used beyond the warm cap; see `WarmAppServers`), driving one
 * Codex thread whose id is checkpointed. Every message is numbered per instance and applied once.
 * Approvals and questions suspend the run as Cairn interactions while Codex waits; the answer's run
 * replies to the live request, or, when the host restarted meanwhile, resumes the thread with the
 * answer as input. Stop interrupts the Codex turn, and kills the process group when that is not
 * confirmed within the bound.
 */
export function createCodexBackend(deps: CodexBackendDeps): CodexBackend {
  const bounds: CodexBounds = { ...DEFAULT_BOUNDS, ...deps.bounds };
  const states = new Map<string, SessionState>();
  const codexHome = codexHomeOf(deps.dataDir);
  const tmpDir = join(deps.dataDir, 'codex', 'tmp');
  const quarantine = createProcessQuarantine({
    bounds,
    logger: deps.logger,
    onChange: (sessionId, quarantined) => deps.onQuarantine(sessionId, quarantined === null ? null : quarantineOf(sessionId)),
  });
  const ctx: CodexContext = {
    deps,
    checkpoints: deps.checkpoints,
    threads: deps.threads,
    appServers: deps.appServers,
    bounds,
    states,
    quarantine,
    closed: false,
    async retire(sessionId, state) {
      if (states.get(sessionId) === state) states.delete(sessionId);
      // Its commands run in process groups of their own: ended first, while they are still its children.
      await state.background.stopAll('Its Codex app-server was stopped, so Cairn stopped it.');
      await retireProcess(sessionId, state.live.process);
    },
  };

  /** Ends a process of the session; its record says whether it is gone or quarantines the session. */
  async function retireProcess(sessionId: string, process: EndableProcess): Promise<void> {
    await quarantine.retire(sessionId, process);
    if (process.pid === null || ctx.closed) return;
    if (quarantine.quarantinedPid(sessionId) === process.pid) deps.appServers.setState(sessionId, process.pid, 'quarantined', deps.now());
    else deps.appServers.gone(sessionId, process.pid);
  }

  /**
   * App-servers a previous host left behind (it died, or could not stop them): a provably-same one is
   * stopped (TERM, then KILL of its group) before the session starts another; one that cannot be
   * confirmed gone keeps its session quarantined. Until that is settled, a turn of the session waits.
   */
  function stopLeftovers(): void {
    for (const record of deps.appServers.live()) {
      const leftover = new RecordedProcess(record.pid, record.processStart);
      const fate = leftover.fate();
      if (fate === 'gone' || fate === 'other') {
        deps.appServers.gone(record.sessionId, record.pid);
        continue;
      }
      deps.logger.warn('A Codex app-server of a previous host is still running; stopping it', { sessionId: record.sessionId, pid: record.pid, fate });
      void quarantine.retire(record.sessionId, leftover).then(() => {
        if (ctx.closed) return;
        if (quarantine.quarantinedPid(record.sessionId) === record.pid) {
          deps.appServers.setState(record.sessionId, record.pid, 'quarantined', deps.now());
          return;
        }
        deps.appServers.setState(record.sessionId, record.pid, 'leftover_stopped', deps.now());
        deps.onLeftoverStopped(record.sessionId, record.pid);
      });
    }
  }
  stopLeftovers();
  const start = createAppServerStarter(ctx, { codexHome, tmpDir });
  const pump = createTurnReader(ctx);
  const retire = ctx.retire;
  const warm = new WarmAppServers({ ...DEFAULT_WARM_LIMITS, ...deps.warm }, states, retire);

  function quarantineOf(sessionId: string): CodexQuarantine | null {
    const pid = quarantine.quarantinedPid(sessionId);
    return pid === undefined ? null : { sessionId, pid, message: quarantineMessage(pid) };
  }

  /** Waits for an app-server of the session still being ended; refuses while one is quarantined. */
  async function held(sessionId: string): Promise<void> {
    const old = await quarantine.held(sessionId);
    if (old !== null) throw new AgentBackendError('codex_quarantined', quarantineMessage(old.pid), 'codex_quarantined');
  }

  async function* run(input: AgentRunInput, signal: AbortSignal): AsyncGenerator<AgentEvent> {
    const target = deps.resolve(input.connectionId, input.model);
    if ('error' in target) throw new AgentBackendError('connection_unavailable', target.error, 'connection_unavailable');
    const session = deps.sessionOf(input.sessionId);
    if (session === null) throw new AgentBackendError('connection_unavailable', 'This session no longer exists.', 'connection_unavailable');
    await held(input.sessionId);
    const cwd = session.workspacePath ?? join(deps.dataDir, 'codex', 'work', input.sessionId);
    mkdirSync(cwd, { recursive: true });
    const answer: PersonAnswer | null = input.runKind === 'continuation' ? answerInHistory(input.history, input.turnId) : null;
    const answeredId = input.approvedToolCall?.toolCallId ?? answer?.toolCallId ?? null;
    let state = states.get(input.sessionId) ?? null;

    if (state?.pending != null && answeredId === state.pending.toolCallId && !state.live.process.hasExited && state.mapper !== null) {
      // Codex still waits for this answer: reply, and read on in the same Codex turn.
      const pending = state.pending;
      const approved = input.approvedToolCall !== null;
      const forSession = approved && deps.allowedForSession(input.sessionId, pending.toolName);
      const reason = approved ? null : declineReason(pending.method, answer);
      // Steered in first, so the request that follows the decline already carries it.
      if (reason !== null) await steer(input.sessionId, state, reason);
      state.live.rpc.respond(pending.requestId, codexResponse(pending.method, pending.params, approved ? null : answer, forSession));
      if (!approved) state.mapper.markSettled(pending.toolCallId);
      state.pending = null;
      state.run = { sessionId: input.sessionId, turnId: input.turnId, runId: input.runId };
      if (approved && pending.toolName === CODEX_SHELL_TOOL) state.commands?.allowed(pending.toolCallId, forSession);
      yield* pump(input.sessionId, state, signal);
      return;
    }

    if (state !== null && needsNewAppServer(state, launchKey(target, cwd))) {
      await retire(input.sessionId, state);
      await held(input.sessionId);
      state = null;
    }
    state ??= await start({ sessionId: input.sessionId, turnId: input.turnId, runId: input.runId }, target, cwd, session.permissionMode);
    if (signal.aborted) return;
    const { live } = state;
    const policies = codexPolicies(session.permissionMode);
    live.drain();
    const goal = deps.goalOf(input.sessionId, input.turnId);
    state.goalId = goal?.goalId ?? null;
    state.structured = deps.isDelegation(input.sessionId, input.turnId);
    const reading = state;
    state.processes = TurnProcesses.begin(live.process.pid);
    // A goal turn that starts afresh is Codex's own continuation turn; one that resumes an
    // interrupted attempt, carries an answer, or is the first on a new thread that owes the summary
    // of Cairn's record is started by Cairn with what it must say.
    const summaryDue = live.threadId !== null && deps.threads.summaryDue(live.threadId);
    const continuation =
      goal !== null && answeredId === null && input.resume === null && !summaryDue
        ? await continueThreadGoal(live, goal, signal, bounds, (notification) => {
            if (!deps.checkpoints.claim(input.sessionId, live.instanceId, notification.seq)) return;
            const update = goalUpdateOf(notification.method, notification.params);
            if (update !== null && reading.goalId !== null) deps.onGoalUpdate(input.sessionId, reading.goalId, update);
          }).catch((error: unknown) => {
            deps.logger.warn('Codex did not take the goal', { sessionId: input.sessionId, error: String(error) });
            return null;
          })
        : null;
    if (continuation === null && goal !== null) {
      await setThreadGoal(live, goal, 'paused', bounds.requestMs).catch((error: unknown) => {
        deps.logger.warn('Codex did not take the goal', { sessionId: input.sessionId, error: String(error) });
      });
    }
    if (continuation === null && signal.aborted) return;
    const turnId = continuation ?? (await startCodexTurn(ctx, input, state, cwd, policies, answeredId, answer));
    live.activeTurnId = turnId;
    const mapper = new EventMapper(turnId, target.model, policies.approvalPolicy === 'never');
    const run: RunRef = { sessionId: input.sessionId, turnId: input.turnId, runId: input.runId };
    state.mapper = mapper;
    state.run = run;
    state.commands = new CommandOutput(
      deps.commands,
      () => reading.run ?? run,
      turnId,
      (itemId) => {
        const item = mapper.itemOf(itemId);
        return item?.type === 'commandExecution' ? item : null;
      },
      policies.approvalPolicy === 'never',
    );
    yield* pump(input.sessionId, state, signal);
  }

  /** Adds `text` to the Codex turn in progress (`turn/steer`); a turn that will not take it is logged, not failed. */
  async function steer(sessionId: string, state: SessionState, text: string): Promise<void> {
    const { live } = state;
    if (live.threadId === null || live.activeTurnId === null) return;
    const params = { threadId: live.threadId, expectedTurnId: live.activeTurnId, input: [{ type: 'text', text, text_elements: [] }] };
    await live.rpc.request('turn/steer', params, bounds.requestMs).catch((error: unknown) => {
      deps.logger.warn('Codex did not take the deny reason', { sessionId, error: String(error) });
    });
  }

  async function* compact(input: AgentRunInput, signal: AbortSignal): AsyncGenerator<AgentEvent> {
    const target = deps.resolve(input.connectionId, input.model);
    if ('error' in target) throw new AgentBackendError('connection_unavailable', target.error, 'connection_unavailable');
    const session = deps.sessionOf(input.sessionId);
    if (session === null) throw new AgentBackendError('connection_unavailable', 'This session no longer exists.', 'connection_unavailable');
    await held(input.sessionId);
    const cwd = session.workspacePath ?? join(deps.dataDir, 'codex', 'work', input.sessionId);
    mkdirSync(cwd, { recursive: true });
    let state = states.get(input.sessionId) ?? null;
    if (state !== null && needsNewAppServer(state, launchKey(target, cwd))) {
      await retire(input.sessionId, state);
      await held(input.sessionId);
      state = null;
    }
    state ??= await start({ sessionId: input.sessionId, turnId: input.turnId, runId: input.runId }, target, cwd, session.permissionMode);
    if (signal.aborted) return;
    const { live } = state;
    live.drain();
    const turnId = await startThreadCompaction(live, (seq) => deps.checkpoints.claim(input.sessionId, live.instanceId, seq), bounds.requestMs, signal);
    if (turnId === null) return;
    live.activeTurnId = turnId;
    Object.assign(state, {
      mapper: new EventMapper(turnId, target.model),
      run: { sessionId: input.sessionId, turnId: input.turnId, runId: input.runId },
      goalId: null,
      structured: false,
      commands: null,
      processes: null,
    });
    yield* pump(input.sessionId, state, signal);
  }

  return {
    id: CODEX_BACKEND_ID,
    run: (input, signal) => warm.use(input.sessionId, run(input, signal)),
    compact: (input, signal) => warm.use(input.sessionId, compact(input, signal)),
    quarantined: (sessionId) => quarantineOf(sessionId) !== null,
    quarantineOf,
    async forceStop(sessionId) {
      const pid = quarantine.quarantinedPid(sessionId);
      const stopped = await quarantine.forceStop(sessionId);
      if (stopped && pid != null) deps.appServers.gone(sessionId, pid);
      return stopped;
    },
    async releaseWaiting(sessionId) {
      const state = states.get(sessionId);
      if (state?.pending != null) await retire(sessionId, state);
    },
    clearGoal(sessionId) {
      const live = states.get(sessionId)?.live;
      if (live === undefined || live.threadId === null || live.process.hasExited) return;
      clearThreadGoal(live, bounds.requestMs).catch((error: unknown) => {
        // The next app-server that resumes the thread clears it (see `start`).
        deps.logger.warn('Codex did not clear the thread goal', { sessionId, error: String(error) });
      });
    },
    async listModels(connectionId) {
      const target = deps.resolve(connectionId, null);
      if ('error' in target) throw new Error(target.error);
      mkdirSync(codexHome, { recursive: true });
      mkdirSync(tmpDir, { recursive: true });
      return listCodexModels(appServerLaunch({ ...target, codexHome, tmpDir }, tmpDir), deps.cairnVersion, bounds);
    },
    async shutdown() {
      warm.close();
      await Promise.all([...states.entries()].map(([sessionId, state]) => retire(sessionId, state)));
      ctx.closed = true;
    },
  };
}

/** A warm app-server that cannot take the next turn: busy, started with other settings, or gone (even before its exit is heard). */
function needsNewAppServer(state: SessionState, key: string): boolean {
  const { live } = state;
  return state.pending !== null || live.activeTurnId !== null || live.launchKey !== key || live.process.hasExited || live.process.isGone();
}

function quarantineMessage(pid: number | null): string {
  return `The previous Codex app-server of this session (pid ${pid ?? '?'}) could not be confirmed stopped, so no new one starts on the same thread. Use Force stop, then send again.`;
}
