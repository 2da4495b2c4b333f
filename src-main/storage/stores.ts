import type { DataDirLock } from './data-dir-lock';
import { acquireDataDirLock } from './data-dir-lock';
import { openDatabase, type OpenDatabaseOptions } from './database';
import { createCodexStore, type CodexStore } from './codex-store';
import { createConnectionStore, type ConnectionStore } from './connection-store';
import { createGoalStore, type GoalStore } from './goal-store';
import { createInteractionStore, type InteractionStore } from './interaction-store';
import { createLedgerStore, type LedgerStore } from './ledger-store';
import { createQueueStore, type QueueStore } from './queue-store';
import { createSessionStore, type SessionStore } from './session-store';
import { createSettingsStore, type SettingsStore } from './settings-store';
import { createShellRunStore, type ShellRunStore } from './shell-run-store';
import { createTranscriptStore, type TranscriptStore } from './transcript-store';
import { createTurnStore, type TurnStore } from './turn-store';
import { createUsageStore, type UsageStore } from './usage-store';
import { createWorkHubStore, type WorkHubStore } from './workhub-store';

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
  readonly shellRuns: ShellRunStore;
  readonly codex: CodexStore;
  /** Runs `work` in one transaction: all its writes commit together or none do. */
  transaction<T>(work: () => T): T;
  close(): void;
}

/** Locks the data directory, opens and migrates its database, and builds the stores. */
export function openStores(dataDir: string, options: OpenDatabaseOptions = {}): Stores {
  const lock: DataDirLock = acquireDataDirLock(dataDir);
  let db;
  try {
    db = openDatabase(dataDir, options);
  } catch (error) {
    lock.release();
    throw error;
  }
  const database = db;
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
    shellRuns: createShellRunStore(database),
    codex: createCodexStore(database),
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
