import type { AcpImport } from './acp-import';
import type { HookService } from '../hooks/hook-service';
import type { HookSettingsService } from '../hooks/hook-settings-service';
import type { SandboxAvailability } from '../sandbox/sandbox-availability';
import type { SandboxService } from '../sandbox/sandbox-service';
import type { SandboxSettingsService } from '../sandbox/sandbox-settings';
import type { AcpAgentIdentity, AcpSessionOffers } from '../../../src-shared/acp-model';
import type { CodexTurnResult } from '../../../src-shared/codex-model';
import type { Outcome } from '../../../src-shared/errors';
import type { UsageGroup, UsageTotals } from '../../../src-shared/usage-model';
import type { MemoryStoreOpening } from '../../storage/memory-store';
import type { SecretVault } from '../../storage/secret-vault';
import type { Stores } from '../../storage/stores';
import type { UsageQuery } from '../../storage/usage-store';
import type { AgentService } from '../subagents/agent-service';
import type { AttachmentService } from '../attachments/attachment-service';
import type { Automations } from '../automations/automations';
import type { AgentBackend } from '../contract/agent-backend';
import type { BranchService } from '../branches/branch-service';
import type { ChatService } from '../conversations/chat-service';
import type { CheckpointService } from '../checkpoints/checkpoint-service';
import type { WorktreeService } from '../worktrees/worktree-service';
import type { CodexBackend } from '../agent-backends/codex/codex-backend';
import type { CodexBounds } from '../agent-backends/codex/live-app-server';
import type { CodexThreadChoices } from '../agent-backends/codex/thread-choice';
import type { AcpBounds } from '../agent-backends/acp/acp-bounds';
import type { AcpInstaller } from '../agent-backends/acp/acp-installer';
import type { AcpRegistry } from '../connections/acp-registry';
import type { AcpLogins } from '../agent-backends/acp/acp-logins';
import type { StorageDamage } from '../storage-faults/storage-damage';
import type { CompactNow } from '../compaction/compact-now';
import type { CompactionRuntime } from '../compaction/compaction-runtime';
import type { ConnectionService, ConnectionServiceDeps } from '../connections/connection-service';
import type { ContextRuntime } from '../context/context-runtime';
import type { EventBus } from '../ports/event-bus';
import type { GoalService } from '../goals/goal-service';
import type { InteractionService } from '../interactions/interaction-service';
import type { AdmissionGate } from '../lifecycle/admission-gate';
import type { McpBounds } from '../mcp/mcp-connections';
import type { McpServerService } from '../mcp/mcp-server-service';
import type { MemoryService } from '../memory/memory-service';
import type { GrantService } from '../permissions/grant-service';
import type { Clock, Ids, Logger } from '../ports/ports';
import type { ProviderClient } from '../connections/provider-client';
import type { RecoveryReport } from '../turns/recovery';
import type { RunExecutor } from '../turns/run-executor';
import type { SessionService } from '../sessions/session-service';
import type { ShellService } from '../shell/shell-service';
import type { SkillService } from '../skills/skill-service';
import type { TurnService } from '../turns/turn-service';
import type { WorkHubService } from '../workhub/workhub-service';

/** What the host gives the runtime, and the runtime it gets back (see ../runtime.ts). */
export interface RuntimeDeps {
  readonly stores: Stores;
  readonly vault: SecretVault;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly logger: Logger;
  readonly hostEpoch: string;
  readonly providers: ProviderClient;
  /** Backends for particular connection ids (tests); the Offline demo gets the scripted agent, others the model agent. */
  readonly backends: ReadonlyMap<string, AgentBackend>;
  readonly discoveryProbes: ConnectionServiceDeps['discoveryProbes'];
  readonly flushMs?: number;
  /** Backoff base for transient provider errors (tests shorten it). */
  readonly retryBaseMs?: number;
  /** The data directory (Codex's CODEX_HOME lives in it) and Cairn's version, told to Codex. */
  readonly dataDir: string;
  readonly cairnVersion: string;
  /** Whose `~/.claude/settings.json` hooks are read when the person opts in; default the OS user's home. */
  readonly hooksHomeDir?: string;
  /**
   * Codex sessions: provider retries, the bounds on every await (tests shorten them), how long an idle
   * app-server stays warm (`idleMs`, default 10 min) and how many stay warm (`maxWarm`, default 4).
   */
  readonly codex?: {
    readonly retries?: number;
    readonly bounds?: Partial<CodexBounds>;
    readonly config?: readonly string[];
    readonly idleMs?: number;
    readonly maxWarm?: number;
  };
  /**
   * ACP agent sessions: the bounds on every await (tests shorten them), and where preset agents are
   * installed from instead of the npm registry (a folder or address of packed tarballs; offline installs and tests),
   * and how long a cancelled install's npm has to end before it is killed (tests set 0).
   */
  readonly acp?: {
    readonly bounds?: Partial<AcpBounds>;
    readonly installSource?: string;
    readonly installKillGraceMs?: number;
    /** Where the ACP agent registry is fetched from (tests: a loopback server); unset, its published address. */
    readonly registryUrl?: string;
  };
  /** Automations: the clock the scheduler wakes by (tests drive it by hand) and a crash-injection hook. */
  readonly automations?: { readonly timer?: Clock; readonly afterRecord?: (firingId: string) => void };
  /** The optional long-term memory database, or why it could not be opened. */
  readonly memory?: MemoryStoreOpening;
  /** Transcript items a branch copies per transaction (tests shorten it). */
  readonly branchCopyChunk?: number;
  /** MCP servers: bounds on connecting and on one call (tests shorten them). */
  readonly mcpBounds?: Partial<McpBounds>;
  /** File checkpoints: the size cap, off (a bench baseline) and a crash-injection hook (after a commit object, before its ref). */
  readonly checkpoints?: {
    readonly maxFileBytes?: number;
    readonly disabled?: boolean;
    readonly afterCommitObject?: (changeSetId: string) => void;
  };
  /** Whether a session's model writes its title after the first exchange (default true). */
  readonly modelTitles?: boolean;
  /** Whether commands can be sandboxed here (detected by the host at start); default: not available. */
  readonly sandbox?: SandboxAvailability;
  /** Worktrees: the environment git runs in (tests give a PATH without git). */
  readonly worktrees?: { readonly env?: NodeJS.ProcessEnv };
  /** Variables whose names look like secrets that agents' commands still get, by name (the host's `--pass-env`). */
  readonly commandEnvPassThrough?: readonly string[];
}

export interface Runtime {
  readonly bus: EventBus;
  readonly sessions: SessionService;
  readonly turns: TurnService;
  readonly connections: ConnectionService;
  readonly interactions: InteractionService;
  readonly grants: GrantService;
  readonly skills: SkillService;
  readonly goals: GoalService;
  readonly workhub: WorkHubService;
  readonly shell: ShellService;
  /** The wall around agents' commands (Auto, and approved commands in Ask). */
  readonly sandbox: SandboxService;
  /** Settings → Sandbox's lists and each session's allowed hosts. */
  readonly sandboxSettings: SandboxSettingsService;
  readonly executor: RunExecutor;
  /** The person's hooks (Claude Code's format): which apply, trust, enable, Test. */
  readonly hooks: HookService;
  /** Settings → Hooks: the hooks in effect where, trust, enable, Test. */
  readonly hookSettings: HookSettingsService;
  /** Whether new work may start; closed for good once shutdown begins. */
  readonly admission: AdmissionGate;
  /** Database damage found after start: answered as `storage_damaged`, announced once, and no new work starts. */
  readonly storageDamage: StorageDamage;
  readonly codex: CodexBackend;
  /** Installs preset ACP agents (Claude, Gemini CLI, OpenCode) into the data directory on the person's click. */
  readonly acpInstaller: AcpInstaller;
  /** The ACP agent registry's list (Add connection), refreshed from the network when reachable. */
  readonly acpRegistry: AcpRegistry;
  /** Signing in to ACP agents (their declared ways, and sign-ins the person runs from the desktop). */
  readonly acpLogins: AcpLogins;
  /** Codex threads that could not be resumed, and the person's choice on each. */
  readonly codexThreads: CodexThreadChoices;
  readonly automations: Automations;
  readonly memory: MemoryService;
  readonly branches: BranchService;
  readonly mcp: McpServerService;
  /** Message search, instructions, model settings and exports. */
  readonly chat: ChatService;
  readonly attachments: AttachmentService;
  readonly context: ContextRuntime;
  /** Summaries of older turns: Compact now, the threshold setting. */
  readonly compaction: CompactionRuntime & CompactNow;
  /** Subagents: child sessions, their trees and the Stop that cascades down them. */
  readonly agents: AgentService;
  /** Per-turn file checkpoints: change sets, their diffs, and reverts. */
  readonly checkpoints: CheckpointService;
  /** Sessions in git worktrees of their own: create, status, diff, merge back, discard, leftovers. */
  readonly worktrees: WorktreeService;
  /** The structured results of a turn's Codex turns. */
  codexResults(sessionId: string, turnId: string): CodexTurnResult[];
  /** The agent of an ACP session as it named itself when it last started for the session; null before. */
  acpAgentOf(sessionId: string): AcpAgentIdentity | null;
  /** What an ACP session's agent offers (commands, modes, config options) and the person's choices, as last kept. */
  acpOffersOf(sessionId: string): AcpSessionOffers;
  /** The person chose among what an ACP session's agent offers: kept, announced, applied to the running agent. */
  acpChoose(request: {
    readonly sessionId: string;
    readonly selectorId: string;
    readonly value: string;
  }): Promise<Outcome<{ offers: AcpSessionOffers }, 'invalid_input' | 'not_found' | 'provider_error'>>;
  /** An ACP agent's own earlier sessions: listed for a folder, and imported as Cairn sessions. */
  readonly acpImport: AcpImport;
  usage(query: UsageQuery): Outcome<{ totals: UsageTotals; groups: UsageGroup[] }, 'not_found'>;
  /** Closes what the previous host left open and restarts queued work; call before serving. */
  recover(): RecoveryReport;
  /**
   * Closes admission (nothing new starts from now on), ends live runs as interrupted (resumable)
   * and waits briefly for their backends to let go.
   */
  shutdown(graceMs: number): Promise<void>;
}
