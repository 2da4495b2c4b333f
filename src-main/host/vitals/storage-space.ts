import { lstat, readdir } from 'node:fs/promises';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { fail, ok, type Outcome } from '../../../src-shared/errors';
import type { StorageReclaimProgress, StorageReclaimResult, StorageUsage } from '../../../src-shared/storage-model';
import type { EventBus } from '../../runtime/ports/event-bus';
import type { AdmissionGate } from '../../runtime/lifecycle/admission-gate';
import { DATABASE_FILE } from '../../storage/database';
import { databaseSpace, vacuumInWorker, type VacuumOutcome } from '../../storage/database-vacuum';
import type { Stores } from '../../storage/stores';

/** How often the page hears how far compacting got. */
const PROGRESS_MS = 250;

export interface StorageSpaceDeps {
  readonly dataDir: string;
  readonly stores: Pick<Stores, 'turns' | 'offloadUses'>;
  readonly admission: AdmissionGate;
  readonly bus: Pick<EventBus, 'publish'>;
  readonly now: () => number;
  /** Compacts the database (tests hold it to see what happens meanwhile). */
  readonly vacuum?: (file: string) => Promise<VacuumOutcome>;
}

/** Settings → Storage: what the data directory holds, and Reclaim space. */
export interface StorageSpace {
  usage(): Promise<StorageUsage>;
  reclaim(): Outcome<{ reclaim: StorageReclaimProgress }, 'session_busy'>;
  /** Resolves when no reclaim is running. */
  idle(): Promise<void>;
}

export const COMPACTING_MESSAGE =
  'Cairn is compacting its database (Settings → Storage → Reclaim space), so no agent starts until it finishes, usually within seconds. Send your message again then.';

export function createStorageSpace(deps: StorageSpaceDeps): StorageSpace {
  const file = join(deps.dataDir, DATABASE_FILE);
  const vacuum = deps.vacuum ?? vacuumInWorker;
  let running: { progress: StorageReclaimProgress; done: Promise<void> } | null = null;
  let last: StorageReclaimResult | null = null;
  const onDisk = () => sizeOf(file) + sizeOf(`${file}-wal`);

  return {
    async usage() {
      const offload = await folderSize(join(deps.dataDir, 'context-offload'));
      const archivedOffloadBytes = deps.stores.offloadUses
        .onlyArchived()
        .reduce((sum, handle) => sum + sizeOf(join(deps.dataDir, 'context-offload', `${handle}.txt`)), 0);
      return {
        databaseBytes: sizeOf(file),
        walBytes: sizeOf(`${file}-wal`),
        freeBytes: databaseSpace(file).freeBytes,
        offloadBytes: offload.bytes,
        offloadFiles: offload.files,
        checkpointsBytes: (await folderSize(join(deps.dataDir, 'checkpoints'))).bytes,
        worktreesBytes: (await folderSize(join(deps.dataDir, 'worktrees'))).bytes,
        archivedOffloadBytes,
        turnRunning: deps.stores.turns.runningRuns().length > 0,
        reclaim: running === null ? null : { ...running.progress, writtenBytes: sizeOf(`${file}-wal`) },
        lastReclaim: last,
      };
    },

    reclaim() {
      if (running !== null) return ok({ reclaim: running.progress });
      if (deps.stores.turns.runningRuns().length > 0) {
        return fail(
          'session_busy',
          'An agent is working, and Reclaim space waits for an idle moment. Try again when no turn is running.',
        );
      }
      // Checked and paused in one synchronous step: no turn can start in between.
      const release = deps.admission.pause(COMPACTING_MESSAGE);
      const before = onDisk();
      const progress: StorageReclaimProgress = {
        startedAt: deps.now(),
        writtenBytes: 0,
        expectedBytes: databaseSpace(file).usedBytes,
      };
      const ticker = setInterval(() => deps.bus.publish({ kind: 'storage.changed' }), PROGRESS_MS);
      const done = vacuum(file)
        .catch((error: unknown): VacuumOutcome => ({ ok: false, message: String(error) }))
        .then((outcome) => {
          clearInterval(ticker);
          release();
          running = null;
          last = {
            finishedAt: deps.now(),
            ok: outcome.ok,
            freedBytes: outcome.ok ? Math.max(0, before - onDisk()) : 0,
            message: outcome.ok ? null : `The database could not be compacted (${outcome.message}); nothing was lost.`,
          };
          deps.bus.publish({ kind: 'storage.changed' });
        });
      running = { progress, done };
      deps.bus.publish({ kind: 'storage.changed' });
      return ok({ reclaim: progress });
    },

    async idle() {
      await running?.done;
    },
  };
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** Bytes and files under a folder, links not followed; 0 when it does not exist. */
async function folderSize(folder: string): Promise<{ bytes: number; files: number }> {
  let bytes = 0;
  let files = 0;
  const walk = async (dir: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) {
        try {
          bytes += (await lstat(path)).size;
          files += 1;
        } catch {
          // Gone meanwhile.
        }
      }
    }
  };
  await walk(folder);
  return { bytes, files };
}
