import type {
  ChangeSetOrigin,
  ChangeSetRecord,
  ChangeSetStatus,
  ChangeWriter,
  FileChange,
  FileChangeRecord,
} from '../../src-shared/checkpoint-model';
import type { Db } from './database';

export interface NewChangeSet {
  readonly changeSetId: string;
  readonly sessionId: string;
  readonly turnId: string;
  readonly origin: ChangeSetOrigin;
  readonly revertsChangeSetId: string | null;
  readonly workspacePath: string;
  readonly now: number;
}

/** A change set with the shadow-git commits it spans (host side only). */
export interface StoredChangeSet extends ChangeSetRecord {
  readonly workspacePath: string;
  readonly beforeCommit: string | null;
  readonly afterCommit: string | null;
}

/** The change set as clients see it (without the commits and the workspace path). */
export function publicChangeSet(changeSet: StoredChangeSet): ChangeSetRecord {
  const { workspacePath: _workspace, beforeCommit: _before, afterCommit: _after, ...record } = changeSet;
  return record;
}

/** A change set as listed: its first files by path and its totals (`summaries`). */
export interface ChangeSetSummary extends Omit<StoredChangeSet, 'files'> {
  /** The first files by path, at most as many as asked. */
  readonly files: readonly FileChangeRecord[];
  readonly fileCount: number;
  /** Lines added and removed over all its files (a binary file counts none). */
  readonly added: number;
  readonly removed: number;
}

/** Change sets and their files. A change set goes pending → open → complete, or to absent. */
export interface CheckpointStore {
  /** Change sets removed with their sessions whose refs are still to drop (`checkpoint_released`). */
  released(): Array<{ changeSetId: string; workspacePath: string }>;
  forgetReleased(changeSetId: string): void;
  insertPending(changeSet: NewChangeSet): void;
  /** The checkpoint before the change exists (its commit and ref are written). */
  markOpen(changeSetId: string, beforeCommit: string): void;
  complete(
    changeSetId: string,
    afterCommit: string,
    files: readonly FileChangeRecord[],
    note: string | null,
    now: number,
  ): void;
  markAbsent(changeSetId: string, note: string, now: number): void;
  get(changeSetId: string): StoredChangeSet | null;
  /** The session's open change set for a turn, if any. */
  openFor(sessionId: string, turnId: string): StoredChangeSet | null;
  list(sessionId: string, turnId?: string): StoredChangeSet[];
  /** As `list`, each change set with only its first `firstFiles` files (by path) and its totals, read in one query. */
  summaries(sessionId: string, turnId: string | undefined, firstFiles: number): ChangeSetSummary[];
  /** A change set's files by path, `limit` from `offset` on. */
  files(changeSetId: string, offset: number, limit: number): FileChangeRecord[];
  /** A change set's file paths, sorted. */
  paths(changeSetId: string): string[];
  /** Change sets a stopped host left pending or open (recovery). */
  unfinished(): StoredChangeSet[];
}

interface ChangeSetRow {
  change_set_id: string;
  session_id: string;
  turn_id: string;
  origin: ChangeSetOrigin;
  reverts_change_set_id: string | null;
  workspace_path: string;
  status: ChangeSetStatus;
  before_commit: string | null;
  after_commit: string | null;
  note: string | null;
  created_at: number;
  completed_at: number | null;
}

interface FileRow {
  change_set_id: string;
  path: string;
  change: FileChange;
  added: number | null;
  removed: number | null;
  writer: string;
}

interface TotalsRow {
  change_set_id: string;
  file_count: number;
  added_total: number;
  removed_total: number;
}

function toRecord(row: ChangeSetRow, files: readonly FileChangeRecord[]): StoredChangeSet {
  return {
    changeSetId: row.change_set_id,
    sessionId: row.session_id,
    turnId: row.turn_id,
    origin: row.origin,
    revertsChangeSetId: row.reverts_change_set_id,
    status: row.status,
    note: row.note,
    files,
    createdAt: row.created_at,
    completedAt: row.completed_at,
    workspacePath: row.workspace_path,
    beforeCommit: row.before_commit,
    afterCommit: row.after_commit,
  };
}

/** Reads file rows, parsing each distinct writer once (a command's files all share its writer). */
function fileReader(): (row: FileRow) => FileChangeRecord {
  const writers = new Map<string, ChangeWriter>();
  return (row) => {
    let writer = writers.get(row.writer);
    if (writer === undefined) {
      writer = JSON.parse(row.writer) as ChangeWriter;
      writers.set(row.writer, writer);
    }
    return { path: row.path, change: row.change, added: row.added, removed: row.removed, writer };
  };
}

export function createCheckpointStore(db: Db): CheckpointStore {
  const filesOf = db.prepare<[string], FileRow>('SELECT * FROM change_files WHERE change_set_id = ? ORDER BY path');
  const byId = db.prepare<[string], ChangeSetRow>('SELECT * FROM change_sets WHERE change_set_id = ?');
  const withFiles = (row: ChangeSetRow | undefined) =>
    row === undefined ? null : toRecord(row, filesOf.all(row.change_set_id).map(fileReader()));
  const sessionSets = db.prepare<[string], ChangeSetRow>(
    'SELECT * FROM change_sets WHERE session_id = ? ORDER BY created_at, rowid',
  );
  const turnSets = db.prepare<[string, string], ChangeSetRow>(
    'SELECT * FROM change_sets WHERE session_id = ? AND turn_id = ? ORDER BY created_at, rowid',
  );
  // The files of every listed change set in one query, rather than one per change set.
  const sessionFiles = db.prepare<[string], FileRow>(
    'SELECT f.* FROM change_files f JOIN change_sets s ON s.change_set_id = f.change_set_id WHERE s.session_id = ? ORDER BY f.change_set_id, f.path',
  );
  const turnFiles = db.prepare<[string, string], FileRow>(
    'SELECT f.* FROM change_files f JOIN change_sets s ON s.change_set_id = f.change_set_id WHERE s.session_id = ? AND s.turn_id = ? ORDER BY f.change_set_id, f.path',
  );
  // Each listed change set's totals, counted by SQLite along the files' index rather than read row by row.
  const totals = (where: string) =>
    `SELECT f.change_set_id, COUNT(*) AS file_count, TOTAL(f.added) AS added_total, TOTAL(f.removed) AS removed_total
     FROM change_files f JOIN change_sets s ON s.change_set_id = f.change_set_id WHERE ${where} GROUP BY f.change_set_id`;
  const sessionTotals = db.prepare<[string], TotalsRow>(totals('s.session_id = ?'));
  const turnTotals = db.prepare<[string, string], TotalsRow>(totals('s.session_id = ? AND s.turn_id = ?'));
  const filePage = db.prepare<[string, number, number], FileRow>(
    'SELECT * FROM change_files WHERE change_set_id = ? ORDER BY path LIMIT ? OFFSET ?',
  );
  const pathsOf = db
    .prepare<[string], string>('SELECT path FROM change_files WHERE change_set_id = ? ORDER BY path')
    .pluck();
  const insertFile = db.prepare(
    'INSERT INTO change_files (change_set_id, path, change, added, removed, writer) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const released = db.prepare<[], { change_set_id: string; workspace_path: string }>(
    'SELECT change_set_id, workspace_path FROM checkpoint_released ORDER BY workspace_path',
  );
  const forgetReleased = db.prepare('DELETE FROM checkpoint_released WHERE change_set_id = ?');
  return {
    released: () =>
      released.all().map((row) => ({ changeSetId: row.change_set_id, workspacePath: row.workspace_path })),
    forgetReleased(changeSetId) {
      forgetReleased.run(changeSetId);
    },
    insertPending(changeSet) {
      db.prepare(
        "INSERT INTO change_sets (change_set_id, session_id, turn_id, origin, reverts_change_set_id, workspace_path, status, created_at) VALUES (?, ?, ?, ?, ?, ?, 'pending', ?)",
      ).run(
        changeSet.changeSetId,
        changeSet.sessionId,
        changeSet.turnId,
        changeSet.origin,
        changeSet.revertsChangeSetId,
        changeSet.workspacePath,
        changeSet.now,
      );
    },
    markOpen(changeSetId, beforeCommit) {
      db.prepare("UPDATE change_sets SET status = 'open', before_commit = ? WHERE change_set_id = ?").run(
        beforeCommit,
        changeSetId,
      );
    },
    complete(changeSetId, afterCommit, files, note, now) {
      db.transaction(() => {
        db.prepare(
          "UPDATE change_sets SET status = 'complete', after_commit = ?, note = ?, completed_at = ? WHERE change_set_id = ?",
        ).run(afterCommit, note, now, changeSetId);
        db.prepare('DELETE FROM change_files WHERE change_set_id = ?').run(changeSetId);
        for (const file of files)
          insertFile.run(changeSetId, file.path, file.change, file.added, file.removed, JSON.stringify(file.writer));
      })();
    },
    markAbsent(changeSetId, note, now) {
      db.prepare("UPDATE change_sets SET status = 'absent', note = ?, completed_at = ? WHERE change_set_id = ?").run(
        note,
        now,
        changeSetId,
      );
    },
    get: (changeSetId) => withFiles(byId.get(changeSetId)),
    openFor(sessionId, turnId) {
      return withFiles(
        db
          .prepare<[string, string], ChangeSetRow>(
            "SELECT * FROM change_sets WHERE session_id = ? AND turn_id = ? AND status IN ('pending', 'open') ORDER BY created_at DESC LIMIT 1",
          )
          .get(sessionId, turnId),
      );
    },
    list(sessionId, turnId) {
      const rows = turnId === undefined ? sessionSets.all(sessionId) : turnSets.all(sessionId, turnId);
      const fileRows = turnId === undefined ? sessionFiles.all(sessionId) : turnFiles.all(sessionId, turnId);
      const toFile = fileReader();
      const files = new Map<string, FileChangeRecord[]>();
      for (const fileRow of fileRows) {
        const ofSet = files.get(fileRow.change_set_id);
        if (ofSet === undefined) files.set(fileRow.change_set_id, [toFile(fileRow)]);
        else ofSet.push(toFile(fileRow));
      }
      return rows.map((row) => toRecord(row, files.get(row.change_set_id) ?? []));
    },
    summaries(sessionId, turnId, first) {
      const rows = turnId === undefined ? sessionSets.all(sessionId) : turnSets.all(sessionId, turnId);
      const counted = new Map(
        (turnId === undefined ? sessionTotals.all(sessionId) : turnTotals.all(sessionId, turnId)).map((row) => [
          row.change_set_id,
          row,
        ]),
      );
      const toFile = fileReader();
      return rows.map((row) => {
        const total = counted.get(row.change_set_id);
        // The first files by path, read along the primary key (change set, path): no sort.
        const files = total === undefined || first === 0 ? [] : filePage.all(row.change_set_id, first, 0).map(toFile);
        return {
          ...toRecord(row, files),
          fileCount: total?.file_count ?? 0,
          added: total?.added_total ?? 0,
          removed: total?.removed_total ?? 0,
        };
      });
    },
    files: (changeSetId, offset, limit) => filePage.all(changeSetId, limit, offset).map(fileReader()),
    paths: (changeSetId) => pathsOf.all(changeSetId),
    unfinished() {
      return db
        .prepare<[], ChangeSetRow>("SELECT * FROM change_sets WHERE status IN ('pending', 'open') ORDER BY created_at")
        .all()
        .map((row) => toRecord(row, []));
    },
  };
}
