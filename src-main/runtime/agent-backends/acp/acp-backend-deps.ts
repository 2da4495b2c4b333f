import type { InitializeResponse, RequestPermissionRequest, RequestPermissionResponse } from '@agentclientprotocol/sdk';
import type { AcpAgentIdentity } from '../../../../src-shared/acp-model';
import type { AcpAgentCommand } from '../../../../src-shared/connection-model';
import type { ContextMeter } from '../../../../src-shared/context-model';
import type { PermissionMode } from '../../../../src-shared/model';
import type { AcpStore } from '../../../storage/acp-store';
import type { AgentBackend } from '../../contract/agent-backend';
import type { Logger } from '../../ports/ports';
import type { McpLaunch } from '../../mcp/mcp-client';
import type { ShellOutputChunk, ShellRunner } from '../../shell/shell-runner';
import type { Confinement } from '../../sandbox/sandbox-service';
import type { AcpEventMapper } from './acp-event-mapper';
import type { AcpBounds } from './acp-bounds';
import type { AcpTerminals } from './acp-terminals';
import type { AcpSessionNews, LiveAcpAgent } from './live-acp-agent';
import type { AcpForkPoint } from './acp-session-fork';

/** What the ACP backend needs of the host (wired in `runtime/composition/acp-wiring.ts`), and the state it keeps per session. */

export interface AcpBackendDeps {
  resolve(connectionId: string): AcpAgentCommand | { error: string };
  sessionOf(sessionId: string): { workspacePath: string | null; permissionMode: PermissionMode } | null;
  /** The MCP servers the session has on, passed to the agent in `session/new` and `session/load`. */
  mcpServersOf(sessionId: string): readonly McpLaunch[];
  readonly resumePoints: AcpStore;
  allowedForSession(sessionId: string, toolName: string): boolean;
  readonly dataDir: string;
  readonly cairnVersion: string;
  newInstanceId(): string;
  now(): number;
  readonly logger: Logger;
  readonly bounds?: Partial<AcpBounds>;
  /** The agent of a connection answered `initialize` (how it signs in, `authMethods`, is kept per connection). */
  onInitialized?(connectionId: string, info: InitializeResponse): void;
  /** The agent named itself (`initialize`) as it started for the session: the header names it so. */
  onAgent(sessionId: string, agent: AcpAgentIdentity): void;
  /** The person's choices among what the agent offers (selector id → value), kept in the session's record. */
  chosenOf(sessionId: string): Readonly<Record<string, string>>;
  /** The agent said what it offers in the session (its commands, modes, config options), or gave it a title. */
  onNews(sessionId: string, news: AcpSessionNews): void;
  /** The agent reported how full its context is (`usage_update`): the header's context meter. */
  onContextMeter(sessionId: string, meter: ContextMeter): void;
  /** Where the agent's terminals run (Cairn's shell runs), and their live output goes. */
  readonly shell: {
    readonly runner: ShellRunner;
    onOutput(sessionId: string, chunk: ShellOutputChunk): void;
    /**
     * Where a terminal of the session runs: in the sandbox (Auto, Ask), outside it (Full), or refused.
     * Default: outside. `call`: the run reading the agent and the terminal's call, which a network
     * block of the terminal is attributed to (its "Allow network to <host>" card).
     */
    confine?(
      sessionId: string,
      cwd: string,
      call?: { readonly turnId: string; readonly runId: string; readonly toolCallId: string },
    ): Confinement;
  };
  /**
   * Where the agent process itself runs: in the sandbox (Auto: its own state writable, network only
   * to its connection's model endpoint), outside it (every other mode), or refused (Auto where there
   * is no sandbox). Default: outside.
   */
  confineAgent?(sessionId: string, connectionId: string, workspace: string, command: AcpAgentCommand): Confinement;
  /**
   * Where a branch's first agent session would fork from: its source's agent session and the agent's
   * last answer before the branch point. Null for a session that is not a branch, or whose source has
   * no agent session or no answer before the point.
   */
  forkPointOf?(sessionId: string): AcpForkPoint | null;
  /** Whether a session in `mode` runs its agent inside the sandbox (a change across the wall restarts the agent). */
  agentWalled?(mode: PermissionMode): boolean;
}

export interface AcpBackend extends AgentBackend {
  /** A turn of the session was stopped while the agent waited for the person: its request is cancelled. */
  releaseWaiting(sessionId: string): Promise<void>;
  /** Whether the session's last agent process could not be confirmed gone (no new one starts until it is). */
  quarantined(sessionId: string): boolean;
  /**
   * Applies the person's choice (kept in the session's record) to the session's running agent, if one
   * runs: its mode within what the permission mode allows, or a config option. Also called when the
   * permission mode changed (`selectorId` null), so the agent's mode follows it at once.
   */
  applyChoice(sessionId: string, selectorId: string | null): Promise<void>;
  /** Ends every agent process (host shutdown). */
  shutdown(): Promise<void>;
}

export interface PendingPermission {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly params: RequestPermissionRequest;
  readonly respond: (response: RequestPermissionResponse) => void;
}

export interface SessionState {
  readonly live: LiveAcpAgent;
  /** Whether the agent process runs inside the sandbox: then its own tools are contained, and run unasked. */
  readonly walled: boolean;
  /** What the agent's file requests are checked against; changed in place as turns go. */
  readonly fs: { workspace: string; permissionMode: PermissionMode; writeApproved: boolean; approvedPaths: string[] };
  /** The terminals the agent opened (`terminal/*`), as shell runs of the run that asked. */
  readonly terminals: AcpTerminals;
  /** The Cairn run reading the agent now: where a terminal it opens is recorded. */
  run: { readonly turnId: string; readonly runId: string } | null;
  mapper: AcpEventMapper | null;
  pending: PendingPermission | null;
  /** Stop of the current prompt turn, once begun (its cancel, then the kill if the bound passes). */
  stopping: Promise<void> | null;
}
