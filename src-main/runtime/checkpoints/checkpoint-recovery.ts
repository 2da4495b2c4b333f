import type { Stores } from '../../storage/stores';
import type { EventBus } from '../ports/event-bus';
import type { Clock, Logger } from '../ports/ports';
import { ABSENT_NOTE, afterFailedNote, beforeRef, type CheckpointRecorder, partialPaths } from './checkpoint-recorder';
import type { ShadowRepo } from './shadow-git';

/** What a change set closed by recovery says: its checkpoint before was whole; its writers are not known. */
const RECOVERED_NOTE =
  'Cairn stopped during this turn; the checkpoint before it was complete, and these changes were recorded when Cairn started again (who wrote each file is not known).';

export interface RecoveryDeps {
  readonly stores: Pick<Stores, 'checkpoints'>;
  readonly bus: EventBus;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly recorder: CheckpointRecorder;
  readonly repoFor: (workspace: string) => ShadowRepo;
}

/**
 * Closes what a stopped host left: a pending change set whose checkpoint ref exists is complete
 * (its after-state is the workspace now, writers unknown); one whose ref is missing is absent. An
 * open one is closed the same way. Returns what it found, for the log.
 */
export async function recoverChangeSets(deps: RecoveryDeps): Promise<{ completed: number; absent: number }> {
  const report = { completed: 0, absent: 0 };
  const unfinished = deps.stores.checkpoints.unfinished();
  if (unfinished.length === 0) return report;
  for (const changeSet of unfinished) {
    const repo = deps.repoFor(changeSet.workspacePath);
    try {
      // The ref is written before the row: when a partial checkpoint was being widened, it is the newer.
      const before = (await repo.readRef(beforeRef(changeSet.changeSetId))) ?? changeSet.beforeCommit;
      if (before === null) {
        deps.stores.checkpoints.markAbsent(changeSet.changeSetId, ABSENT_NOTE, deps.clock.now());
        report.absent += 1;
      } else {
        if (changeSet.beforeCommit !== before) deps.stores.checkpoints.markOpen(changeSet.changeSetId, before);
        const partial = partialPaths(await repo.message(before));
        await deps.recorder.complete(
          changeSet.changeSetId,
          changeSet.workspacePath,
          before,
          new Map(),
          { kind: 'unknown' },
          RECOVERED_NOTE,
          partial,
        );
        report.completed += 1;
      }
      deps.bus.publish({ kind: 'changes.changed', sessionId: changeSet.sessionId, turnId: changeSet.turnId });
    } catch (error) {
      // Never left open: an open change set would block every rewind across it, for good.
      deps.logger.warn('A file checkpoint could not be recovered', {
        changeSetId: changeSet.changeSetId,
        error: String(error),
      });
      deps.stores.checkpoints.markAbsent(changeSet.changeSetId, afterFailedNote(error), deps.clock.now());
      report.absent += 1;
      deps.bus.publish({ kind: 'changes.changed', sessionId: changeSet.sessionId, turnId: changeSet.turnId });
    }
  }
  deps.logger.info('File checkpoints the previous host left unfinished', { ...report });
  return report;
}
