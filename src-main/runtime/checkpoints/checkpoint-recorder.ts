import type { ChangeSetOrigin, ChangeWriter, FileChangeRecord } from '../../../src-shared/checkpoint-model';
import type { CheckpointStore } from '../../storage/checkpoint-store';
import type { Clock, Ids, Logger } from '../core/ports';
import type { NumstatEntry, ShadowRepo } from './shadow-git';

export interface CheckpointRecorderDeps {
  readonly store: CheckpointStore;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly logger: Logger;
  readonly repoFor: (workspace: string) => ShadowRepo;
  /** Told when a change set was recorded (complete or absent). */
  readonly onRecorded: (sessionId: string, turnId: string) => void;
  /** Crash injection for tests: runs after a checkpoint's commit object is written, before its ref. */
  readonly afterCommitObject?: (changeSetId: string) => void;
}

/** One change being recorded: the tree seen last and who wrote which path. */
interface Recording {
  readonly changeSetId: string;
  readonly workspace: string;
  lastTree: string;
  readonly writers: Map<string, ChangeWriter>;
  /** Paths Cairn's file tools wrote since `lastTree` (known exactly, without a snapshot). */
  readonly exact: Set<string>;
}

export const beforeRef = (changeSetId: string) => `refs/cairn/${changeSetId}/before`;
export const afterRef = (changeSetId: string) => `refs/cairn/${changeSetId}/after`;

/** What a change set that is not a turn's records: a revert (of `revertsChangeSetId`) or a rewind. */
export interface ChangeOrigin {
  readonly origin: Exclude<ChangeSetOrigin, 'turn'>;
  readonly revertsChangeSetId: string | null;
}

export const ABSENT_NOTE = 'Cairn stopped before this checkpoint was written, so these changes cannot be reverted.';

/**
 * Records change sets. `begin` writes the checkpoint before a change (a pending row, then the commit
 * object, then its ref, then the row is open: a ref never points at a missing commit, and a pending
 * row whose ref is missing is known to be absent). `attribute` notes which paths one writer changed;
 * `finish` writes the checkpoint after and the change set's files with their writers.
 */
export class CheckpointRecorder {
  private readonly live = new Map<string, Promise<Recording | null>>();

  constructor(private readonly deps: CheckpointRecorderDeps) {}

  private key(sessionId: string, turnId: string): string {
    return `${sessionId}\u0000${turnId}`;
  }

  /** The change being recorded for a turn, opening it (with the checkpoint before) on first use. */
  begin(sessionId: string, turnId: string, workspace: string, origin: ChangeOrigin | null = null): Promise<Recording | null> {
    const key = this.key(sessionId, turnId);
    const existing = this.live.get(key);
    if (existing !== undefined) return existing;
    const opening = this.open(sessionId, turnId, workspace, origin);
    this.live.set(key, opening);
    return opening;
  }

  private async open(sessionId: string, turnId: string, workspace: string, origin: ChangeOrigin | null): Promise<Recording | null> {
    const changeSetId = this.deps.ids.next('change_set');
    const repo = this.deps.repoFor(workspace);
    this.deps.store.insertPending({
      changeSetId,
      sessionId,
      turnId,
      origin: origin?.origin ?? 'turn',
      revertsChangeSetId: origin?.revertsChangeSetId ?? null,
      workspacePath: workspace,
      now: this.deps.clock.now(),
    });
    try {
      return await repo.exclusive(async () => {
        const { tree } = await repo.snapshot();
        const commit = await repo.commit(tree, null, `before ${sessionId} ${turnId}`);
        this.deps.afterCommitObject?.(changeSetId);
        await repo.setRef(beforeRef(changeSetId), commit);
        this.deps.store.markOpen(changeSetId, commit);
        return { changeSetId, workspace, lastTree: tree, writers: new Map<string, ChangeWriter>(), exact: new Set<string>() };
      });
    } catch (error) {
      this.deps.logger.warn('A file checkpoint could not be written', { changeSetId, error: String(error) });
      this.deps.store.markAbsent(changeSetId, `The checkpoint could not be written: ${String(error).slice(0, 300)}`, this.deps.clock.now());
      return null;
    }
  }

  /** After one writer ran: the paths that changed since the last look are its. */
  async attribute(sessionId: string, turnId: string, writer: ChangeWriter): Promise<void> {
    const recording = await this.live.get(this.key(sessionId, turnId));
    if (recording === undefined || recording === null) return;
    const repo = this.deps.repoFor(recording.workspace);
    try {
      await repo.exclusive(async () => {
        const { tree } = await repo.snapshot();
        for (const entry of await repo.numstat(recording.lastTree, tree)) if (!recording.exact.has(entry.path)) recording.writers.set(entry.path, writer);
        recording.lastTree = tree;
        recording.exact.clear();
      });
    } catch (error) {
      this.deps.logger.warn('A file change could not be attributed', { error: String(error) });
    }
  }

  /**
   * A Cairn file tool wrote exactly `file`: no snapshot is needed to know it. (A command that changes
   * the same file before the next snapshot-based attribution leaves it attributed to the tool.)
   */
  async attributeExact(sessionId: string, turnId: string, file: string, writer: ChangeWriter): Promise<void> {
    const recording = await this.live.get(this.key(sessionId, turnId));
    if (recording === undefined || recording === null) return;
    recording.writers.set(file, writer);
    recording.exact.add(file);
  }

  /** Whether a turn is being recorded now. */
  isRecording(sessionId: string, turnId: string): boolean {
    return this.live.has(this.key(sessionId, turnId));
  }

  /**
   * The turn ended: writes the checkpoint after and the change set. `fallback` writes what no writer
   * claimed. A failure closes the change set as absent, with its reason: it never stays open to block
   * later turns or rewinds.
   */
  async finish(sessionId: string, turnId: string, fallback: ChangeWriter): Promise<string | null> {
    const key = this.key(sessionId, turnId);
    const recording = await this.live.get(key);
    this.live.delete(key);
    if (recording === undefined || recording === null) return null;
    const stored = this.deps.store.get(recording.changeSetId);
    if (stored?.beforeCommit == null) return null;
    try {
      await this.complete(recording.changeSetId, recording.workspace, stored.beforeCommit, recording.writers, fallback);
    } catch (error) {
      this.deps.logger.warn('A turn’s file changes could not be recorded', { changeSetId: recording.changeSetId, error: String(error) });
      this.deps.store.markAbsent(recording.changeSetId, afterFailedNote(error), this.deps.clock.now());
    }
    this.deps.onRecorded(sessionId, turnId);
    return recording.changeSetId;
  }

  /** Writes the checkpoint after an open change set (also recovery's way to close one). */
  async complete(
    changeSetId: string,
    workspace: string,
    beforeCommit: string,
    writers: ReadonlyMap<string, ChangeWriter>,
    fallback: ChangeWriter,
    recovered: string | null = null,
  ): Promise<void> {
    const repo = this.deps.repoFor(workspace);
    await repo.exclusive(async () => {
      const { tree, tooLarge, unreadable } = await repo.snapshot();
      const commit = await repo.commit(tree, beforeCommit, `after ${changeSetId}`);
      await repo.setRef(afterRef(changeSetId), commit);
      const files = (await repo.numstat(beforeCommit, commit)).map((entry): FileChangeRecord => withWriter(entry, writers.get(entry.path) ?? fallback));
      const note = [
        recovered,
        leftOutNote('larger than the checkpoint size cap', tooLarge),
        leftOutNote(
          'git could not read them',
          unreadable.map((file) => file.path),
        ),
      ]
        .filter((part) => part !== null)
        .join(' ');
      this.deps.store.complete(changeSetId, commit, files, note === '' ? null : note, this.deps.clock.now());
    });
  }
}

/** Why a change set whose checkpoint after could not be written is absent. */
export function afterFailedNote(error: unknown): string {
  return `The checkpoint after this turn could not be written, so its changes cannot be reverted (${String(error).slice(0, 300)}).`;
}

/** "Left out (why): a, b, …", or null when nothing was. */
function leftOutNote(why: string, paths: readonly string[]): string | null {
  if (paths.length === 0) return null;
  return `Left out (${why}): ${paths.slice(0, 20).join(', ')}${paths.length > 20 ? `, … (${paths.length} in all)` : ''}.`;
}

function withWriter(entry: NumstatEntry, writer: ChangeWriter): FileChangeRecord {
  return { path: entry.path, change: entry.change, added: entry.added, removed: entry.removed, writer };
}
