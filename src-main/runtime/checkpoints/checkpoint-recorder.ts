import type { ChangeSetOrigin, ChangeWriter, FileChangeRecord } from '../../../src-shared/checkpoint-model';
import type { CheckpointStore } from '../../storage/checkpoint-store';
import type { Clock, Ids, Logger } from '../ports/ports';
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

/** One change being recorded: the checkpoint before, the tree seen last and who wrote which path. */
interface Recording {
  readonly changeSetId: string;
  readonly sessionId: string;
  readonly turnId: string;
  readonly workspace: string;
  beforeCommit: string;
  /** The whole workspace as last seen; null while the checkpoint before is partial. */
  lastTree: string | null;
  readonly writers: Map<string, ChangeWriter>;
  /** Paths Cairn's file tools wrote since `lastTree` (known exactly, without a snapshot). */
  readonly exact: Set<string>;
  /**
   * While only Cairn's file tools have written: the paths whose state before the turn was taken one
   * by one, just before each was first written (the checkpoint before holds only them). Null once the
   * checkpoint before holds the whole workspace.
   */
  partial: Set<string> | null;
  /** Changes to the recording (a path taken, the whole workspace taken), one at a time. */
  chain: Promise<unknown>;
}

/** The line of a partial checkpoint's commit message that names its paths (read back by recovery). */
const PARTIAL_TRAILER = 'Cairn-Partial: ';

/** The paths a partial checkpoint before holds, from its commit message; null for a whole-workspace one. */
export function partialPaths(message: string): string[] | null {
  const line = message.split('\n').find((candidate) => candidate.startsWith(PARTIAL_TRAILER));
  if (line === undefined) return null;
  const parsed: unknown = JSON.parse(line.slice(PARTIAL_TRAILER.length));
  return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string') : null;
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

  /**
   * The change being recorded for a turn, with a checkpoint before of the whole workspace: opened on
   * first use, or widened from a partial one (a command is about to run, and could change anything).
   */
  begin(
    sessionId: string,
    turnId: string,
    workspace: string,
    origin: ChangeOrigin | null = null,
  ): Promise<Recording | null> {
    const key = this.key(sessionId, turnId);
    const existing = this.live.get(key);
    if (existing === undefined) {
      const opening = this.open(sessionId, turnId, workspace, origin, null);
      this.live.set(key, opening);
      return opening;
    }
    const whole = existing.then((recording) =>
      recording?.partial == null ? recording : this.serially(recording, () => this.widen(recording)),
    );
    this.live.set(key, whole);
    return whole;
  }

  /**
   * A Cairn file tool is about to write `file` (relative to the workspace): its state before the turn
   * is taken now, on its own, unless the turn's checkpoint before already holds it. What this costs
   * does not grow with the workspace: no snapshot of the whole of it is taken for a file tool's write.
   */
  async beforeWrite(sessionId: string, turnId: string, workspace: string, file: string): Promise<void> {
    const key = this.key(sessionId, turnId);
    const existing = this.live.get(key);
    if (existing === undefined) {
      const opening = this.open(sessionId, turnId, workspace, null, file);
      this.live.set(key, opening);
      await opening;
      return;
    }
    const recording = await existing;
    if (recording?.partial == null || recording.partial.has(file)) return;
    await this.serially(recording, () => this.takePath(recording, file));
  }

  private serially<T>(recording: Recording, work: () => Promise<T>): Promise<T> {
    const next = recording.chain.then(work, work);
    recording.chain = next.catch(() => undefined);
    return next;
  }

  private async open(
    sessionId: string,
    turnId: string,
    workspace: string,
    origin: ChangeOrigin | null,
    first: string | null,
  ): Promise<Recording | null> {
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
      const write = async (tree: string, paths: readonly string[] | null) => {
        const commit = await repo.commit(tree, null, beforeMessage(sessionId, turnId, paths));
        this.deps.afterCommitObject?.(changeSetId);
        await repo.setRef(beforeRef(changeSetId), commit);
        this.deps.store.markOpen(changeSetId, commit);
        return commit;
      };
      const base = {
        changeSetId,
        sessionId,
        turnId,
        workspace,
        writers: new Map<string, ChangeWriter>(),
        exact: new Set<string>(),
        chain: Promise.resolve(),
      };
      if (first !== null) {
        const { tree } = await repo.treeWith(null, [first]);
        return { ...base, beforeCommit: await write(tree, [first]), lastTree: null, partial: new Set([first]) };
      }
      return await repo.exclusive(async () => {
        const { tree } = await repo.snapshot();
        return { ...base, beforeCommit: await write(tree, null), lastTree: tree, partial: null };
      });
    } catch (error) {
      this.deps.logger.warn('A file checkpoint could not be written', { changeSetId, error: String(error) });
      this.deps.store.markAbsent(
        changeSetId,
        `The checkpoint could not be written: ${String(error).slice(0, 300)}`,
        this.deps.clock.now(),
      );
      return null;
    }
  }

  /** Adds one path's state now to a partial checkpoint before (a new commit; the ref and row follow it). */
  private async takePath(recording: Recording, file: string): Promise<void> {
    const repo = this.deps.repoFor(recording.workspace);
    const paths = [...(recording.partial ?? []), file];
    await this.rewriteBefore(recording, async () => {
      const { tree } = await repo.treeWith(recording.beforeCommit, [file]);
      return repo.commit(tree, null, beforeMessage(recording.sessionId, recording.turnId, paths));
    });
    recording.partial?.add(file);
  }

  /**
   * A partial checkpoint before becomes one of the whole workspace: the workspace now, with each path
   * already taken as it was before its first write. A command may wait for this; file tools never do.
   */
  private async widen(recording: Recording): Promise<Recording | null> {
    const repo = this.deps.repoFor(recording.workspace);
    const taken = [...(recording.partial ?? [])];
    let now = '';
    const ok = await this.rewriteBefore(recording, () =>
      repo.exclusive(async () => {
        now = (await repo.snapshot()).tree;
        const before = await repo.entries(recording.beforeCommit, taken);
        const tree = await repo.treeWithEntries(now, new Map(taken.map((file) => [file, before.get(file) ?? null])));
        return repo.commit(tree, null, beforeMessage(recording.sessionId, recording.turnId, null));
      }),
    );
    if (!ok) return null;
    recording.partial = null;
    recording.lastTree = now;
    recording.exact.clear();
    return recording;
  }

  /** Points the checkpoint before at a new commit; a failure closes the change set as absent, and the turn records nothing more. */
  private async rewriteBefore(recording: Recording, make: () => Promise<string>): Promise<boolean> {
    const repo = this.deps.repoFor(recording.workspace);
    try {
      const commit = await make();
      await repo.setRef(beforeRef(recording.changeSetId), commit);
      this.deps.store.markOpen(recording.changeSetId, commit);
      recording.beforeCommit = commit;
      return true;
    } catch (error) {
      this.deps.logger.warn('A file checkpoint could not be written', {
        changeSetId: recording.changeSetId,
        error: String(error),
      });
      this.deps.store.markAbsent(
        recording.changeSetId,
        `The checkpoint could not be written: ${String(error).slice(0, 300)}`,
        this.deps.clock.now(),
      );
      this.live.set(this.key(recording.sessionId, recording.turnId), Promise.resolve(null));
      this.deps.onRecorded(recording.sessionId, recording.turnId);
      return false;
    }
  }

  /** After one writer ran: the paths that changed since the last look are its. */
  async attribute(sessionId: string, turnId: string, writer: ChangeWriter): Promise<void> {
    const recording = await this.live.get(this.key(sessionId, turnId));
    if (recording?.lastTree == null) return;
    const repo = this.deps.repoFor(recording.workspace);
    try {
      await repo.exclusive(async () => {
        const { tree } = await repo.snapshot();
        for (const entry of await repo.numstat(recording.lastTree, tree))
          if (!recording.exact.has(entry.path)) recording.writers.set(entry.path, writer);
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
    await recording.chain;
    if (this.deps.store.get(recording.changeSetId)?.status !== 'open') return null;
    const partial =
      recording.partial === null ? null : [...new Set([...recording.partial, ...recording.writers.keys()])];
    try {
      await this.complete(
        recording.changeSetId,
        recording.workspace,
        recording.beforeCommit,
        recording.writers,
        fallback,
        null,
        partial,
      );
    } catch (error) {
      this.deps.logger.warn('A turn’s file changes could not be recorded', {
        changeSetId: recording.changeSetId,
        error: String(error),
      });
      this.deps.store.markAbsent(recording.changeSetId, afterFailedNote(error), this.deps.clock.now());
    }
    this.deps.onRecorded(sessionId, turnId);
    return recording.changeSetId;
  }

  /**
   * Writes the checkpoint after an open change set (also recovery's way to close one): the whole
   * workspace, or, after a partial checkpoint before, the `partial` paths as they are now.
   */
  async complete(
    changeSetId: string,
    workspace: string,
    beforeCommit: string,
    writers: ReadonlyMap<string, ChangeWriter>,
    fallback: ChangeWriter,
    recovered: string | null = null,
    partial: readonly string[] | null = null,
  ): Promise<void> {
    const repo = this.deps.repoFor(workspace);
    const locked = <T>(work: () => Promise<T>) => (partial === null ? repo.exclusive(work) : work());
    await locked(async () => {
      const { tree, tooLarge, unreadable } =
        partial === null ? await repo.snapshot() : await repo.treeWith(beforeCommit, partial);
      const commit = await repo.commit(tree, beforeCommit, `after ${changeSetId}`);
      await repo.setRef(afterRef(changeSetId), commit);
      const files = (await repo.numstat(beforeCommit, commit)).map((entry): FileChangeRecord =>
        withWriter(entry, writers.get(entry.path) ?? fallback),
      );
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

/** A checkpoint before's commit message; a partial one names its paths. */
function beforeMessage(sessionId: string, turnId: string, partial: readonly string[] | null): string {
  return partial === null
    ? `before ${sessionId} ${turnId}`
    : `before ${sessionId} ${turnId}\n\n${PARTIAL_TRAILER}${JSON.stringify(partial)}`;
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
