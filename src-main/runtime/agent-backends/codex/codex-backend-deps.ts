import type { CodexQuarantine, CodexThreadProblem } from '../../../../src-shared/codex-model';
import type { ModelInfo } from '../../../../src-shared/connection-model';
import type { ContextMeter } from '../../../../src-shared/context-model';
import type { PermissionMode } from '../../../../src-shared/model';
import type { CodexStore } from '../../../storage/codex-store';
import type { CodexThreadStore } from '../../../storage/codex-thread-store';
import type { CodexAppServerStore } from '../../../storage/codex-app-server-store';
import type { AgentBackend, AgentEvent, AgentRunInput } from '../../contract/agent-backend';
import type { CodexTarget } from '../../connections/codex-connection';
import type { Logger } from '../../ports/ports';
import type { AgentCommandLog } from '../../shell/agent-commands';
import type { CodexGoalUpdate, MirroredGoal } from './goal-mirror';
import type { CodexBounds } from './live-app-server';
import type { WarmLimits } from './warm-app-servers';

export interface CodexBackendDeps {
  resolve(connectionId: string, model: string | null): CodexTarget | { error: string };
  sessionOf(sessionId: string): { workspacePath: string | null; permissionMode: PermissionMode } | null;
  readonly codexStore: CodexStore;
  /** Who owns each thread, and the session's thread that could not be resumed. */
  readonly threads: CodexThreadStore;
  /** The session's thread problem changed (noticed, chosen, resolved) or went away (null). */
  onThreadProblem(sessionId: string, problem: CodexThreadProblem | null): void;
  /** A new thread replaced one that could not be resumed: the run's transcript gets the marker. */
  onNewThread(run: { sessionId: string; turnId: string; runId: string }): void;
  /** Each session's app-server by process identity, recorded at spawn, so a later host finds leftovers. */
  readonly appServers: CodexAppServerStore;
  /** An app-server a previous host left running was stopped at start-up (provably the same process). */
  onLeftoverStopped(sessionId: string, pid: number): void;
  allowedForSession(sessionId: string, toolName: string): boolean;
  /** Cairn's data directory: CODEX_HOME lives in it. */
  readonly dataDir: string;
  readonly cairnVersion: string;
  newInstanceId(): string;
  now(): number;
  readonly logger: Logger;
  readonly bounds?: Partial<CodexBounds>;
  /** How long an idle app-server stays warm and how many stay warm (default 10 min, 4). */
  readonly warm?: Partial<WarmLimits>;
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
