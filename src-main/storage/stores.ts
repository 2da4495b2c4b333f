import type { DataDirLock } from './data-dir-lock';
import { acquireDataDirLock } from './data-dir-lock';
import { DataDirError } from './data-dir-errors';
import { openDatabase, type Db, type OpenDatabaseOptions } from './database';
import { salvageDatabase, type SalvageReport } from './salvage';
import { createAutomationStore, type AutomationStore } from './automation-store';
import { createBranchStore, type BranchStore } from './branch-store';
import { createCheckpointStore, type CheckpointStore } from './checkpoint-store';
import { createChatPreferencesStore, type ChatPreferencesStore } from './chat-preferences-store';
import { createAttachmentStore, type AttachmentStore } from './attachment-store';
import { createAgentStore, type AgentStore } from './agent-store';
import { createAcpStore, type AcpStore } from './acp-store';
import { createAcpOfferStore, type AcpOfferStore } from './acp-offer-store';
import { createCodexStore, type CodexStore } from './codex-store';
import { createCodexThreadStore, type CodexThreadStore } from './codex-thread-store';
import { createCodexAppServerStore, type CodexAppServerStore } from './codex-app-server-store';
import { createConnectionStore, type ConnectionStore } from './connection-store';
import { createGoalStore, type GoalStore } from './goal-store';
import { createInteractionStore, type InteractionStore } from './interaction-store';
import { createLedgerStore, type LedgerStore } from './ledger-store';
import { createMcpServerStore, type McpServerStore } from './mcp-server-store';
import { createOffloadUseStore, type OffloadUseStore } from './offload-use-store';
import { createMessageSearchStore, type MessageSearchStore } from './message-search-store';
import { createQueueStore, type QueueStore } from './queue-store';
import { createSearchIndexStore, type SearchIndexStore } from './search-index-store';
import { createSessionStore, type SessionStore } from './session-store';
import { createSettingsStore, type SettingsStore } from './settings-store';
import { createShellRunStore, type ShellRunStore } from './shell-run-store';
import { createSummaryStore, type SummaryStore } from './summary-store';
import { createTranscriptStore, type TranscriptStore } from './transcript-store';
import { createTurnStore, type TurnStore } from './turn-store';
import { createUsageStore, type UsageStore } from './usage-store';
import { createWorkHubStore, type WorkHubStore } from './workhub-store';
import { createWorktreeStore, type WorktreeStore } from './worktree-store';

/** Every store of one data directory, and the one way to group writes atomically. */
export interface Stores {
  readonly sessions: SessionStore;
  readonly turns: TurnStore;
  readonly ledger: LedgerStore;
  readonly transcript: TranscriptStore;
  readonly queue: QueueStore;
  readonly connections: ConnectionStore;
  readonly settings: SettingsStore;
  readonly usage: UsageStore;
  readonly interactions: InteractionStore;
  readonly goals: GoalStore;
  readonly workhub: WorkHubStore;
  readonly searchIndex: SearchIndexStore;
  readonly shellRuns: ShellRunStore;
  readonly codex: CodexStore;
  readonly acp: AcpStore;
  /** What each ACP agent offers in its session (commands, modes, config options) and the person's choices. */
  readonly acpOffers: AcpOfferStore;
  readonly codexThreads: CodexThreadStore;
  readonly codexAppServers: CodexAppServerStore;
  readonly automations: AutomationStore;
  readonly branches: BranchStore;
  readonly mcpServers: McpServerStore;
  readonly messageSearch: MessageSearchStore;
  readonly chatPreferences: ChatPreferencesStore;
  readonly attachments: AttachmentStore;
  readonly agents: AgentStore;
  readonly summaries: SummaryStore;
  readonly checkpoints: CheckpointStore;
  readonly worktrees: WorktreeStore;
  readonly offloadUses: OffloadUseStore;
  /** Runs `work` in one transaction: all its writes commit together or none do. */
  transaction<T>(work: () => T): T;
  close(): void;
}

export type SalvageMode = 'never' | 'when_damaged' | 'always';

export interface OpenStoresOptions extends Omit<OpenDatabaseOptions, 'check'> {
  /**
   * Whether to move the database aside and start from what can be read (salvageDatabase): never
   * (the default), when the check finds it damaged, or always (damage found later, while recovering).
   */
  readonly salvage?: SalvageMode;
  /** Told when a damaged database was salvaged. */
  readonly onSalvaged?: (report: SalvageReport) => void;
}

/**
 * Locks the data directory, opens and migrates its database, and builds the stores. After an
 * unclean end of the previous owner (or when asked to salvage) the database is checked first.
 */
export function openStores(dataDir: string, options: OpenStoresOptions = {}): Stores {
  const lock: DataDirLock = acquireDataDirLock(dataDir, options);
  let database: Db;
  try {
    database = openChecked(
      dataDir,
      options,
      lock.previousOwnerEndedUncleanly !== null || options.salvage === 'when_damaged',
    );
  } catch (error) {
    lock.release({ clean: false });
    throw error;
  }
  let closed = false;
  return {
    sessions: createSessionStore(database),
    turns: createTurnStore(database),
    ledger: createLedgerStore(database),
    transcript: createTranscriptStore(database),
    queue: createQueueStore(database),
    connections: createConnectionStore(database),
    settings: createSettingsStore(database),
    usage: createUsageStore(database),
    interactions: createInteractionStore(database),
    goals: createGoalStore(database),
    workhub: createWorkHubStore(database),
    searchIndex: createSearchIndexStore(database),
    shellRuns: createShellRunStore(database),
    codex: createCodexStore(database),
    acp: createAcpStore(database),
    acpOffers: createAcpOfferStore(database),
    codexThreads: createCodexThreadStore(database),
    codexAppServers: createCodexAppServerStore(database),
    automations: createAutomationStore(database),
    branches: createBranchStore(database),
    mcpServers: createMcpServerStore(database),
    messageSearch: createMessageSearchStore(database),
    chatPreferences: createChatPreferencesStore(database),
    attachments: createAttachmentStore(database, dataDir),
    agents: createAgentStore(database),
    summaries: createSummaryStore(database),
    checkpoints: createCheckpointStore(database),
    worktrees: createWorktreeStore(database),
    offloadUses: createOffloadUseStore(database),
    transaction: (work) => database.transaction(work)(),
    close() {
      if (closed) return;
      closed = true;
      try {
        database.close();
      } finally {
        lock.release();
      }
    },
  };
}

function openChecked(dataDir: string, options: OpenStoresOptions, check: boolean): Db {
  const { salvage = 'never', onSalvaged, ...databaseOptions } = options;
  const salvageAndOpen = () => {
    onSalvaged?.(salvageDatabase(dataDir, databaseOptions, new Date()));
    return openDatabase(dataDir, databaseOptions);
  };
  if (salvage === 'always') return salvageAndOpen();
  try {
    return openDatabase(dataDir, { ...databaseOptions, check });
  } catch (error) {
    if (salvage !== 'when_damaged' || !(error instanceof DataDirError) || error.problem !== 'damaged_database')
      throw error;
    return salvageAndOpen();
  }
}
