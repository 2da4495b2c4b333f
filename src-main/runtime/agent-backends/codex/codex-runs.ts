import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentEvent, AgentRunInput } from '../../contract/agent-backend';
import { AgentBackendError } from '../../contract/agent-backend';
import { launchKey, type createAppServerStarter } from './app-server-start';
import type { CodexTarget } from '../../connections/codex-connection';
import { startThreadCompaction } from './codex-compaction';
import { codexPolicies } from './codex-config';
import type { CodexContext, RunRef, SessionState } from './codex-session-state';
import { CommandOutput } from './command-output';
import { CODEX_SHELL_TOOL, EventMapper } from './event-mapper';
import { continueThreadGoal, goalUpdateOf, setThreadGoal, type MirroredGoal } from './goal-mirror';
import { answerInHistory, codexResponse, declineReason, type PersonAnswer } from './interaction-bridge';
import type { createTurnReader } from './turn-reader';
import { TurnProcesses } from './turn-processes';
import { startCodexTurn } from './turn-start';

type AppServerStarter = ReturnType<typeof createAppServerStarter>;
type TurnReader = ReturnType<typeof createTurnReader>;

/** What a run works in: its connection's target, its session's mode and the folder Codex works in. */
interface RunPlace {
  readonly target: CodexTarget;
  readonly mode: Parameters<typeof codexPolicies>[0];
  readonly cwd: string;
}

/**
 * The runs of the Codex backend. A turn either answers the request Codex still waits for (and reads
 * on in the same Codex turn) or starts a Codex turn on the session's warm app-server (a new one when
 * the warm one cannot take it): Codex's own goal continuation for a goal turn that starts afresh,
 * else `turn/start`. A compaction compacts the session's thread on the same kind of app-server.
 */
export function createCodexRuns(ctx: CodexContext, start: AppServerStarter, pump: TurnReader) {
  const { deps, bounds, states } = ctx;

  /** Resolves the run's connection and session, waits out a quarantine, and makes the working folder. */
  async function placeOf(input: AgentRunInput): Promise<RunPlace> {
    const target = deps.resolve(input.connectionId, input.model);
    if ('error' in target)
      throw new AgentBackendError('connection_unavailable', target.error, 'connection_unavailable');
    const session = deps.sessionOf(input.sessionId);
    if (session === null)
      throw new AgentBackendError('connection_unavailable', 'This session no longer exists.', 'connection_unavailable');
    await ctx.quarantine.held(input.sessionId);
    const cwd = session.workspacePath ?? join(deps.dataDir, 'codex', 'work', input.sessionId);
    mkdirSync(cwd, { recursive: true });
    return { target, mode: session.permissionMode, cwd };
  }

  /** The session's warm app-server when it can take this run, else a new one (the old one ended first). */
  async function appServerFor(input: AgentRunInput, place: RunPlace): Promise<SessionState> {
    let state = states.get(input.sessionId) ?? null;
    if (state !== null && needsNewAppServer(state, launchKey(place.target, place.cwd))) {
      await ctx.retire(input.sessionId, state);
      await ctx.quarantine.held(input.sessionId);
      state = null;
    }
    return state ?? (await start(runRefOf(input), place.target, place.cwd, place.mode));
  }

  async function* run(input: AgentRunInput, signal: AbortSignal): AsyncGenerator<AgentEvent> {
    const place = await placeOf(input);
    const answer: PersonAnswer | null =
      input.runKind === 'continuation' ? answerInHistory(input.history, input.turnId) : null;
    const answeredId = input.approvedToolCall?.toolCallId ?? answer?.toolCallId ?? null;
    const waiting = states.get(input.sessionId) ?? null;
    if (
      waiting?.pending != null &&
      answeredId === waiting.pending.toolCallId &&
      !waiting.live.process.hasExited &&
      waiting.mapper !== null
    ) {
      yield* answerPending(input, waiting, answer, signal);
      return;
    }
    const state = await appServerFor(input, place);
    if (signal.aborted) return;
    const { live } = state;
    const policies = codexPolicies(place.mode);
    live.drain();
    const goal = deps.goalOf(input.sessionId, input.turnId);
    state.goalId = goal?.goalId ?? null;
    state.structured = deps.isDelegation(input.sessionId, input.turnId);
    state.processes = TurnProcesses.begin(live.process.pid);
    // A goal turn that starts afresh is Codex's own continuation turn; one that resumes an
    // interrupted attempt, carries an answer, or is the first on a new thread that owes the summary
    // of Cairn's record is started by Cairn with what it must say.
    const summaryDue = live.threadId !== null && deps.threads.summaryDue(live.threadId);
    const continuation =
      goal !== null && answeredId === null && input.resume === null && !summaryDue
        ? await continueGoal(input.sessionId, state, goal, signal)
        : null;
    if (continuation === null && goal !== null) {
      await setThreadGoal(live, goal, 'paused', bounds.requestMs).catch((error: unknown) => {
        deps.logger.warn('Codex did not take the goal', { sessionId: input.sessionId, error: String(error) });
      });
    }
    if (continuation === null && signal.aborted) return;
    const turnId = continuation ?? (await startCodexTurn(ctx, input, state, place.cwd, policies, answeredId, answer));
    followTurn(ctx, state, runRefOf(input), turnId, place.target.model, policies.approvalPolicy === 'never');
    yield* pump(input.sessionId, state, signal);
  }

  /** Codex still waits for this answer: reply, and read on in the same Codex turn. */
  async function* answerPending(
    input: AgentRunInput,
    state: SessionState,
    answer: PersonAnswer | null,
    signal: AbortSignal,
  ): AsyncGenerator<AgentEvent> {
    const pending = state.pending;
    if (pending === null) return;
    const approved = input.approvedToolCall !== null;
    const forSession = approved && deps.allowedForSession(input.sessionId, pending.toolName);
    const reason = approved ? null : declineReason(pending.method, answer);
    // Steered in first, so the request that follows the decline already carries it.
    if (reason !== null) await steer(ctx, input.sessionId, state, reason);
    state.live.rpc.respond(
      pending.requestId,
      codexResponse(pending.method, pending.params, approved ? null : answer, forSession),
    );
    if (!approved) state.mapper?.markSettled(pending.toolCallId);
    state.pending = null;
    state.run = runRefOf(input);
    if (approved && pending.toolName === CODEX_SHELL_TOOL) state.commands?.allowed(pending.toolCallId, forSession);
    yield* pump(input.sessionId, state, signal);
  }

  /** Codex's own continuation turn toward the goal; null when Codex did not take it. */
  async function continueGoal(
    sessionId: string,
    state: SessionState,
    goal: MirroredGoal,
    signal: AbortSignal,
  ): Promise<string | null> {
    const { live } = state;
    return continueThreadGoal(live, goal, signal, bounds, (notification) => {
      if (!deps.codexStore.claim(sessionId, live.instanceId, notification.seq)) return;
      const update = goalUpdateOf(notification.method, notification.params);
      if (update !== null && state.goalId !== null) deps.onGoalUpdate(sessionId, state.goalId, update);
    }).catch((error: unknown) => {
      deps.logger.warn('Codex did not take the goal', { sessionId, error: String(error) });
      return null;
    });
  }

  async function* compact(input: AgentRunInput, signal: AbortSignal): AsyncGenerator<AgentEvent> {
    const place = await placeOf(input);
    const state = await appServerFor(input, place);
    if (signal.aborted) return;
    const { live } = state;
    live.drain();
    const turnId = await startThreadCompaction(
      live,
      (seq) => deps.codexStore.claim(input.sessionId, live.instanceId, seq),
      bounds.requestMs,
      signal,
    );
    if (turnId === null) return;
    live.activeTurnId = turnId;
    Object.assign(state, {
      mapper: new EventMapper(turnId, place.target.model),
      run: runRefOf(input),
      goalId: null,
      structured: false,
      commands: null,
      processes: null,
    });
    yield* pump(input.sessionId, state, signal);
  }

  return { run, compact };
}

/** Adds `text` to the Codex turn in progress (`turn/steer`); a turn that will not take it is logged, not failed. */
async function steer(
  { deps, bounds }: CodexContext,
  sessionId: string,
  state: SessionState,
  text: string,
): Promise<void> {
  const { live } = state;
  if (live.threadId === null || live.activeTurnId === null) return;
  const params = {
    threadId: live.threadId,
    expectedTurnId: live.activeTurnId,
    input: [{ type: 'text', text, text_elements: [] }],
  };
  await live.rpc.request('turn/steer', params, bounds.requestMs).catch((error: unknown) => {
    deps.logger.warn('Codex did not take the deny reason', { sessionId, error: String(error) });
  });
}

/** The session now follows this Codex turn: its events mapped into this run, its commands' output recorded. */
function followTurn(
  ctx: CodexContext,
  state: SessionState,
  run: RunRef,
  turnId: string,
  model: string,
  unasked: boolean,
): void {
  state.live.activeTurnId = turnId;
  const mapper = new EventMapper(turnId, model, unasked);
  state.mapper = mapper;
  state.run = run;
  state.commands = new CommandOutput(
    ctx.deps.commands,
    () => state.run ?? run,
    turnId,
    (itemId) => {
      const item = mapper.itemOf(itemId);
      return item?.type === 'commandExecution' ? item : null;
    },
    unasked,
  );
}

function runRefOf(input: AgentRunInput): RunRef {
  return { sessionId: input.sessionId, turnId: input.turnId, runId: input.runId };
}

/** A warm app-server that cannot take the next turn: busy, started with other settings, or gone (even before its exit is heard). */
function needsNewAppServer(state: SessionState, key: string): boolean {
  const { live } = state;
  return (
    state.pending !== null ||
    live.activeTurnId !== null ||
    live.launchKey !== key ||
    live.process.hasExited ||
    live.process.isGone()
  );
}
