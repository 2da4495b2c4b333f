import type { CodexStore } from '../../../storage/codex-store';
import type { CodexThreadStore } from '../../../storage/codex-thread-store';
import type { CodexAppServerStore } from '../../../storage/codex-app-server-store';
import type { AppServerQuarantine } from './app-server-quarantine';
import type { BackgroundCommands } from './background-commands';
import type { CodexBackendDeps } from './codex-backend-deps';
import type { CommandOutput } from './command-output';
import type { EventMapper } from './event-mapper';
import type { CodexBounds, LiveAppServer } from './live-app-server';
import type { TurnProcesses } from './turn-processes';

/** A Codex request Cairn shows as an interaction, while Codex waits for its answer. */
export interface PendingRequest {
  readonly requestId: number | string;
  readonly method: string;
  readonly params: unknown;
  readonly toolCallId: string;
  readonly toolName: string;
}

/** The Cairn run reading a Codex turn. */
export interface RunRef {
  readonly sessionId: string;
  readonly turnId: string;
  readonly runId: string;
}

/** A session's warm app-server and the Codex turn it is in. */
export interface SessionState {
  live: LiveAppServer;
  /** The model the app-server was started with. */
  readonly model: string;
  /** The run that reads the current Codex turn now. */
  run: RunRef | null;
  mapper: EventMapper | null;
  /** The current Codex turn's commands as shell runs. */
  commands: CommandOutput | null;
  /** The processes the current Codex turn's commands run in, so Stop can end them. */
  processes: TurnProcesses | null;
  /** Commands of earlier turns still running. */
  readonly background: BackgroundCommands;
  pending: PendingRequest | null;
  /** The Cairn goal the current Codex turn works toward. */
  goalId: string | null;
  /** Whether the current Codex turn was given the delegation output schema. */
  structured: boolean;
}

/** What the parts of the Codex backend share: its deps, bounds, the warm app-servers and quarantine. */
export interface CodexContext {
  readonly deps: CodexBackendDeps;
  readonly codexStore: CodexStore;
  readonly threads: CodexThreadStore;
  readonly appServers: CodexAppServerStore;
  readonly bounds: CodexBounds;
  readonly states: Map<string, SessionState>;
  readonly quarantine: AppServerQuarantine;
  /** Set once the host shuts down: late process exits no longer touch the record (its database is closing). */
  closed: boolean;
  /** Ends the session's app-server (quarantining the session if it cannot be confirmed gone). */
  retire(sessionId: string, state: SessionState): Promise<void>;
}
