import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CodexQuarantine } from '../../../src-shared/codex-model';
import type { ModelInfo } from '../../../src-shared/connection-model';
import type { ContextMeter } from '../../../src-shared/context-model';
import type { PermissionMode } from '../../../src-shared/model';
import type { CodexStore } from '../../storage/codex-store';
import type { AgentBackend, AgentEvent, AgentRunInput } from '../backends/agent-backend';
import { AgentBackendError } from '../backends/agent-backend';
import type { Logger } from '../ports';
import type { AgentCommandLog } from '../shell/agent-commands';
import { codexVersion } from './codex-binary';
import { listCodexModels } from './codex-models';
import { appServerLaunch, codexPolicies, type CodexSettings } from './codex-config';
import { threadResultSchema, turnStartResultSchema } from './codex-protocol';
import { CommandOutput } from './command-output';
import { declineResponse } from './codex-requests';
import { contextMeterOf } from './context-usage';
import { EventMapper } from './event-mapper';
import { clearThreadGoal, continueThreadGoal, goalUpdateOf, setThreadGoal, type CodexGoalUpdate, type MirroredGoal } from './goal-mirror';
import { answerAsInput, answerInHistory, bridgeRequest, codexResponse, type PersonAnswer } from './interaction-bridge';
import { DEFAULT_BOUNDS, LiveAppServer, type CodexBounds } from './live-app-server';
import { DELEGATION_OUTPUT_SCHEMA, validateDelegationAnswer } from './structured-answer';
import { isContextCompaction, startThreadCompaction } from './codex-compaction';

/** A Codex connection's settings, minus the folders Cairn owns. */
export type CodexTarget = Omit<CodexSettings, 'codexHome' | 'tmpDir'>;

export interface CodexBackendDeps {
  resolve(connectionId: string, model: string | null): CodexTarget | { error: string };
  sessionOf(sessionId: string): { workspacePath: string | null; permissionMode: PermissionMode } | null;
  readonly checkpoints: CodexStore;
  allowedForSession(sessionId: string, toolName: string): boolean;
  /** Cairn's data directory: CODEX_HOME lives in it. */
  readonly dataDir: string;
  readonly cairnVersion: string;
  newInstanceId(): string;
  now(): number;
  readonly logger: Logger;
  readonly bounds?: Partial<CodexBounds>;
  /** The Cairn goal of a goal turn, or null for any other turn. */
  goalOf(sessionId: string, turnId: string): MirroredGoal | null;
  /** Whether the session has a goal in Cairn's record that is not cleared. */
  hasGoal(sessionId: string): boolean;
  /** Codex changed the thread goal (its update_goal tool). */
  onGoalUpdate(sessionId: string, goalId: string, update: CodexGoalUpdate): void;
  /** Codex reported how full the thread's context is (its token usage and model window). */
  onContextMeter(sessionId: string, meter: ContextMeter): void;
  /** A session was quarantined (its app-server not confirmed gone) or released from quarantine (null). */
  onQuarantine(sessionId: string, quarantine: CodexQuarantine | null): void;
  /** Whether the turn is a WorkHub delegation (it asks Codex for a structured answer). */
  isDelegation(sessionId: string, turnId: string): boolean;
  /** Where Codex's commands are kept as shell runs, their output streamed live. */
  readonly commands: AgentCommandLog;
  /** Codex compacted the thread's context (on its own or asked to): the run it happened in. */
  onContextCompacted?(run: { sessionId: string; turnId: string; runId: string }): void;
}

export interface CodexBackend extends AgentBackend {
  /** Whether the session is quarantined: its last app-server could not be confirmed gone. */
  quarantined(sessionId: string): boolean;
  /** The session's quarantine, as the person is told it, or null. */
  quarantineOf(sessionId: string): CodexQuarantine | null;
  /** Kills a quarantined app-server's group again; true when it is gone now. */
  forceStop(sessionId: string): Promise<boolean>;
  /** A turn of the session was stopped while Codex waited for the person: end that app-server now. */
  releaseWaiting(sessionId: string): Promise<void>;
  /** The session's Cairn goal was cleared: clear its Codex thread goal now (else when its next app-server resumes the thread). */
  clearGoal(sessionId: string): void;
  /** The models the connection's Codex lists (`model/list`, from a short-lived app-server); throws when it does not answer. */
  listModels(connectionId: string): Promise<ModelInfo[]>;
  /** Compact now on a Codex session: Codex compacts its thread with its own `thread/compact/start`. */
  compact(input: AgentRunInput, signal: AbortSignal): AsyncIterable<AgentEvent>;
  /** Ends every app-server (host shutdown). */
  shutdown(): Promise<void>;
}

export const CODEX_BACKEND_ID = 'codex';

interface PendingRequest {
  readonly requestId: number | string;
  readonly method: string;
  readonly params: unknown;
  readonly toolCallId: string;
  readonly toolName: string;
}

/** The Cairn run reading a Codex turn. */
interface RunRef {
  readonly sessionId: string;
  readonly turnId: string;
  readonly runId: string;
}

interface SessionState {
  live: LiveAppServer;
  /** The model the app-server was started with. */
  readonly model: string;
  /** The run that reads the current Codex turn now. */
  run: RunRef | null;
  mapper: EventMapper | null;
  /** The current Codex turn's commands as shell runs. */
  commands: CommandOutput | null;
  pending: PendingRequest | null;
  /** The Cairn goal the current Codex turn works toward. */
  goalId: string | null;
  /** Whether the current Codex turn was given the delegation output schema. */
  structured: boolean;
}

/**
 * Codex as a native AgentBackend: one `codex app-server` per session, kept between turns, driving one
 * Codex thread whose id is checkpointed. Every message is numbered per instance and applied once.
 * Approvals and questions suspend the run as Cairn interactions while Codex waits; the answer's run
 * replies to the live request, or, when the host restarted meanwhile, resumes the thread with the
 * answer as input. Stop interrupts the Codex turn, and kills the process group when that is not
 * confirmed within the bound.
 */
export function createCodexBackend(deps: CodexBackendDeps): CodexBackend {
  const bounds: CodexBounds = { ...DEFAULT_BOUNDS, ...deps.bounds };
  const states = new Map<string, SessionState>();
  const quarantine = new Map<string, LiveAppServer>();
  /** App-servers being ended now, by session. */
  const retiring = new Map<string, Promise<void>>();
  const versions = new Map<string, string>();
  const codexHome = join(deps.dataDir, 'codex', 'home');
  const tmpDir = join(deps.dataDir, 'codex', 'tmp');

  async function versionOf(binary: string): Promise<string | null> {
    const known = versions.get(binary);
    if (known !== undefined) return known;
    try {
      const version = await codexVersion(binary, bounds.requestMs);
      versions.set(binary, version);
      return version;
    } catch {
      return null;
    }
  }

  /**
   * Ends an app-server; quarantines the session when its group cannot be confirmed gone. Until the
   * ending is settled a new turn of the session waits for it (`held`), so two app-servers never run
   * on one thread, not even while the old one is being killed.
   */
  async function retire(sessionId: string, state: SessionState): Promise<void> {
    if (states.get(sessionId) === state) states.delete(sessionId);
    const ending = state.live.process.terminate(bounds.killGraceMs, bounds.killConfirmMs).then((gone) => {
      if (gone) return;
      deps.logger.warn('A Codex app-server could not be confirmed gone; session quarantined', { sessionId, pid: state.live.process.pid });
      quarantine.set(sessionId, state.live);
      deps.onQuarantine(sessionId, quarantineOf(sessionId));
    });
    retiring.set(sessionId, ending);
    try {
      await ending;
    } finally {
      if (retiring.get(sessionId) === ending) retiring.delete(sessionId);
    }
  }

  /** Waits for an app-server of the session still being ended; refuses while one is quarantined. */
  async function held(sessionId: string): Promise<void> {
    await retiring.get(sessionId);
    const old = quarantine.get(sessionId);
    if (old === undefined) return;
    if (!old.process.isGone()) throw new AgentBackendError('codex_quarantined', quarantineMessage(old), 'codex_quarantined');
    release(sessionId, old);
  }

  function quarantineOf(sessionId: string): CodexQuarantine | null {
    const old = quarantine.get(sessionId);
    if (old === undefined || old.process.isGone()) return null;
    return { sessionId, pid: old.process.pid, message: quarantineMessage(old) };
  }

  /** The quarantined app-server is confirmed gone: the session may start a new one. */
  function release(sessionId: string, old: LiveAppServer): void {
    if (quarantine.get(sessionId) !== old) return;
    quarantine.delete(sessionId);
    deps.onQuarantine(sessionId, null);
  }

  /** The structured result of the Codex turn that just ended. */
  function recordResult(state: SessionState, status: 'completed' | 'interrupted' | 'failed', errorMessage: string | null): void {
    state.commands?.closeAll(COMMAND_LEFT_OPEN[status]);
    state.commands = null;
    const { mapper, run } = state;
    if (mapper === null || run === null) return;
    const { facts } = mapper;
    deps.checkpoints.recordTurnResult({
      codexTurnId: mapper.turnId,
      ...run,
      status,
      finalMessage: facts.finalMessage,
      filesChanged: [...facts.filesChanged],
      commands: facts.commands,
      inputTokens: facts.inputTokens,
      outputTokens: facts.outputTokens,
      errorMessage,
      structured: state.structured && status === 'completed' ? validateDelegationAnswer(facts.finalMessage) : null,
      createdAt: deps.now(),
    });
  }

  /** Stop: interrupt the Codex turn and wait, within the bound, for Codex to confirm; else kill. */
  async function stopTurn(sessionId: string, state: SessionState): Promise<void> {
    const { live } = state;
    const turnId = live.activeTurnId;
    if (turnId === null || live.threadId === null) return;
    const deadline = AbortSignal.timeout(bounds.interruptMs);
    try {
      await live.rpc.request('turn/interrupt', { threadId: live.threadId, turnId }, bounds.interruptMs);
      for (;;) {
        const message = await live.next(deadline);
        if (message === null || message.kind === 'exited') break;
        if (message.kind === 'notification' && message.value.method === 'turn/completed' && JSON.stringify(message.value.params).includes(turnId)) {
          recordResult(state, 'interrupted', null);
          live.activeTurnId = null;
          state.mapper = null;
          live.drain();
          return;
        }
      }
    } catch (error) {
      deps.logger.warn('Codex did not confirm the interrupt', { sessionId, error: String(error) });
    }
    recordResult(state, 'interrupted', 'Codex did not confirm the interrupt; its app-server was stopped.');
    await retire(sessionId, state);
  }

  async function start(sessionId: string, target: CodexTarget, cwd: string, mode: PermissionMode): Promise<SessionState> {
    const settings: CodexSettings = { ...target, codexHome, tmpDir };
    mkdirSync(codexHome, { recursive: true });
    mkdirSync(tmpDir, { recursive: true });
    const version = await versionOf(target.binary);
    const live = new LiveAppServer(deps.newInstanceId(), appServerLaunch(settings, cwd), launchKey(target, cwd));
    const policies = codexPolicies(mode);
    try {
      await live.initialize(deps.cairnVersion, bounds);
      const checkpoint = deps.checkpoints.checkpoint(sessionId);
      const threadParams = { model: target.model, cwd, approvalPolicy: policies.approvalPolicy, sandbox: policies.sandbox };
      let result: unknown = null;
      if (checkpoint !== null) {
        result = await live.rpc.request('thread/resume', { threadId: checkpoint.threadId, ...threadParams }, bounds.requestMs).catch((error: unknown) => {
          deps.logger.warn('Codex could not resume the thread; starting a new one', { sessionId, threadId: checkpoint.threadId, error: String(error) });
          return null;
        });
      }
      result ??= await live.rpc.request('thread/start', threadParams, bounds.requestMs);
      live.threadId = threadResultSchema.parse(result).thread.id;
      deps.checkpoints.bind(sessionId, { threadId: live.threadId, instanceId: live.instanceId, codexVersion: version }, deps.now());
      // Cairn's goal record is the truth: a goal cleared while no app-server ran (even across a host
      // restart) is cleared on the resumed thread before it does anything else.
      if (checkpoint !== null && !deps.hasGoal(sessionId)) {
        await clearThreadGoal(live, bounds.requestMs).catch((error: unknown) => {
          deps.logger.warn('Codex did not clear the thread goal', { sessionId, error: String(error) });
        });
      }
    } catch (error) {
      await live.process.terminate(bounds.killGraceMs, bounds.killConfirmMs);
      const tail = live.process.stderrTail();
      throw new AgentBackendError('agent_start_failed', `Codex could not start: ${error instanceof Error ? error.message : String(error)}${tail === '' ? '' : `\n${tail}`}`, 'agent_start_failed');
    }
    const state: SessionState = { live, model: target.model, run: null, mapper: null, commands: null, pending: null, goalId: null, structured: false };
    states.set(sessionId, state);
    return state;
  }

  async function* pump(sessionId: string, state: SessionState, signal: AbortSignal): AsyncGenerator<AgentEvent> {
    const { live } = state;
    let ended = false;
    try {
      for (;;) {
        const message = await live.next(signal);
        if (message === null) return;
        if (message.kind === 'exited') {
          if (states.get(sessionId) === state) states.delete(sessionId);
          ended = true;
          const how = message.signal === null ? `exit code ${message.code ?? 'unknown'}` : `signal ${message.signal}`;
          const tail = live.process.stderrTail();
          const why = `Codex stopped unexpectedly during the turn (${how}).${tail === '' ? '' : ` Its last output:\n${tail}`}`;
          recordResult(state, 'failed', why);
          throw new AgentBackendError('agent_process_exited', why, 'agent_process_exited');
        }
        // Applied once per (instance, sequence); a replaced instance's late events are discarded.
        if (!deps.checkpoints.claim(sessionId, live.instanceId, message.value.seq)) continue;
        const mapper = state.mapper;
        if (mapper === null) continue;
        if (message.kind === 'request') {
          const bridged = bridgeRequest(message.value.method, message.value.params, mapper, message.value.id);
          if (bridged === null) {
            deps.logger.info('Declined a Codex request Cairn does not show', { sessionId, method: message.value.method });
            live.rpc.respond(message.value.id, declineResponse(message.value.method));
            continue;
          }
          state.pending = { requestId: message.value.id, method: message.value.method, params: message.value.params, toolCallId: bridged.toolCallId, toolName: bridged.toolName };
          mapper.markRecorded(bridged.toolCallId);
          ended = true;
          yield { type: 'interaction_requested', ...bridged };
          return;
        }
        state.commands?.observe(message.value.method, message.value.params);
        const meter = contextMeterOf(message.value.method, message.value.params, state.model);
        if (meter !== null) deps.onContextMeter(sessionId, meter);
        if (state.run !== null && isContextCompaction(message.value.method, message.value.params)) deps.onContextCompacted?.(state.run);
        const goalUpdate = goalUpdateOf(message.value.method, message.value.params);
        if (goalUpdate !== null && state.goalId !== null) deps.onGoalUpdate(sessionId, state.goalId, goalUpdate);
        const { events, end } = mapper.map(message.value.method, message.value.params);
        for (const event of events) yield event;
        if (end !== null) {
          ended = true;
          recordResult(state, end.status, end.status === 'failed' ? end.message : null);
          live.activeTurnId = null;
          state.mapper = null;
          if (end.status === 'failed') throw new AgentBackendError('provider_error', `Codex: ${end.message}`, 'provider_error');
          return;
        }
      }
    } finally {
      if (!ended && signal.aborted && state.pending === null) await stopTurn(sessionId, state);
    }
  }

  /** Sends `turn/start` with what Codex is told this turn; the Codex turn id. */
  async function startCodexTurn(
    input: AgentRunInput,
    state: SessionState,
    cwd: string,
    policies: ReturnType<typeof codexPolicies>,
    answeredId: string | null,
    answer: PersonAnswer | null,
  ): Promise<string> {
    const { live } = state;
    const result = await live.rpc
      .request(
        'turn/start',
        {
          threadId: live.threadId,
          input: [{ type: 'text', text: turnInput(input, answeredId, answer), text_elements: [] }],
          cwd,
          approvalPolicy: policies.approvalPolicy,
          sandboxPolicy: policies.sandboxPolicy,
          ...(state.structured ? { outputSchema: DELEGATION_OUTPUT_SCHEMA } : {}),
        },
        bounds.requestMs,
      )
      .catch(async (error: unknown) => {
        const tail = live.process.stderrTail();
        await retire(input.sessionId, state);
        throw new AgentBackendError('provider_error', `Codex did not start the turn: ${error instanceof Error ? error.message : String(error)}${tail === '' ? '' : `\n${tail}`}`, 'provider_error');
      });
    return turnStartResultSchema.parse(result).turn.id;
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
      state.live.rpc.respond(pending.requestId, codexResponse(pending.method, pending.params, approved ? null : answer, forSession));
      if (!approved) state.mapper.markSettled(pending.toolCallId);
      state.pending = null;
      state.run = { sessionId: input.sessionId, turnId: input.turnId, runId: input.runId };
      yield* pump(input.sessionId, state, signal);
      return;
    }

    if (state !== null && (state.pending !== null || state.live.activeTurnId !== null || state.live.launchKey !== launchKey(target, cwd) || state.live.process.hasExited)) {
      await retire(input.sessionId, state);
      await held(input.sessionId);
      state = null;
    }
    state ??= await start(input.sessionId, target, cwd, session.permissionMode);
    if (signal.aborted) return;
    const { live } = state;
    const policies = codexPolicies(session.permissionMode);
    live.drain();
    const goal = deps.goalOf(input.sessionId, input.turnId);
    state.goalId = goal?.goalId ?? null;
    state.structured = deps.isDelegation(input.sessionId, input.turnId);
    const reading = state;
    // A goal turn that starts afresh is Codex's own continuation turn; one that resumes an
    // interrupted attempt or carries an answer is started by Cairn with what it must say.
    const continuation =
      goal !== null && answeredId === null && input.resume === null
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
    const turnId = continuation ?? (await startCodexTurn(input, state, cwd, policies, answeredId, answer));
    live.activeTurnId = turnId;
    const mapper = new EventMapper(turnId, target.model);
    const run: RunRef = { sessionId: input.sessionId, turnId: input.turnId, runId: input.runId };
    state.mapper = mapper;
    state.run = run;
    state.commands = new CommandOutput(deps.commands, () => reading.run ?? run, turnId, (itemId) => {
      const item = mapper.itemOf(itemId);
      return item?.type === 'commandExecution' ? item : null;
    });
    yield* pump(input.sessionId, state, signal);
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
    if (state !== null && (state.pending !== null || state.live.activeTurnId !== null || state.live.launchKey !== launchKey(target, cwd) || state.live.process.hasExited)) {
      await retire(input.sessionId, state);
      await held(input.sessionId);
      state = null;
    }
    state ??= await start(input.sessionId, target, cwd, session.permissionMode);
    if (signal.aborted) return;
    const { live } = state;
    live.drain();
    const turnId = await startThreadCompaction(live, (seq) => deps.checkpoints.claim(input.sessionId, live.instanceId, seq), bounds.requestMs, signal);
    if (turnId === null) return;
    live.activeTurnId = turnId;
    Object.assign(state, { mapper: new EventMapper(turnId, target.model), run: { sessionId: input.sessionId, turnId: input.turnId, runId: input.runId }, goalId: null, structured: false, commands: null });
    yield* pump(input.sessionId, state, signal);
  }

  return {
    id: CODEX_BACKEND_ID,
    run,
    compact,
    quarantined: (sessionId) => quarantineOf(sessionId) !== null,
    quarantineOf,
    async forceStop(sessionId) {
      await retiring.get(sessionId);
      const old = quarantine.get(sessionId);
      if (old === undefined) return true;
      const gone = await old.process.terminate(0, bounds.killConfirmMs);
      if (gone) release(sessionId, old);
      return gone;
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
      await Promise.all([...states.entries()].map(([sessionId, state]) => retire(sessionId, state)));
    },
  };
}

/** What a command Codex left open is told when its turn ends. */
const COMMAND_LEFT_OPEN: Readonly<Record<'completed' | 'interrupted' | 'failed', string>> = {
  completed: 'Codex ended the turn without saying how this command ended.',
  interrupted: 'Stopped with its Codex turn.',
  failed: 'Its Codex turn failed before the command finished.',
};

function quarantineMessage(old: LiveAppServer): string {
  return `The previous Codex app-server of this session (pid ${old.process.pid ?? '?'}) could not be confirmed stopped, so no new one starts on the same thread. Use Force stop, then send again.`;
}

function launchKey(target: CodexTarget, cwd: string): string {
  return JSON.stringify([target.binary, target.model, target.baseUrl, target.apiKey === null ? null : 'key', target.retries ?? null, target.extraConfig ?? [], cwd]);
}

/** What Codex is told this turn: the request, or how an interrupted attempt or an answer carries on. */
function turnInput(input: AgentRunInput, answeredId: string | null, answer: PersonAnswer | null): string {
  if (answeredId !== null) {
    const call = [...input.history].reverse().find((message) => message.role === 'tool_call' && message.data?.toolCallId === answeredId);
    const toolCall = call?.data == null ? null : { toolName: String(call.data.toolName), input: call.data.input };
    return answerAsInput(toolCall, answer, input.approvedToolCall !== null);
  }
  if (input.resume !== null) {
    return `Your previous attempt at this request ended early (${input.resume.reason ?? input.resume.previousStatus}). Continue from where it stopped; do not start over or repeat what you already did.\n\nThe request: ${input.text}`;
  }
  return input.text;
}
