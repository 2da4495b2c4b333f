import type { PermissionMode, SessionActivity, SessionRecord } from '../../src-shared/model';
import type { Db } from './database';

export interface NewSession {
  readonly sessionId: string;
  readonly title: string;
  readonly titleSource: SessionRecord['titleSource'];
  readonly workspacePath: string | null;
  readonly connectionId: string;
  readonly model: string | null;
  readonly permissionMode: PermissionMode;
  readonly now: number;
}

export interface SessionListQuery {
  readonly archived: boolean;
  readonly query?: string;
  readonly cursor?: { readonly updatedAt: number; readonly sessionId: string };
  readonly limit: number;
}

export interface SessionStore {
  insert(session: NewSession): SessionRecord;
  get(sessionId: string): SessionRecord | null;
  list(query: SessionListQuery): SessionRecord[];
  /** Sets the title and bumps the revision. */
  setTitle(sessionId: string, title: string, source: SessionRecord['titleSource'], now: number): void;
  setArchived(sessionId: string, archived: boolean, now: number): void;
  /** Sets the connection, model and permission mode, bumping the revision. */
  configure(
    sessionId: string,
    settings: {
      connectionId: string;
      model: string | null;
      permissionMode: PermissionMode;
      workspacePath: string | null;
    },
    now: number,
  ): void;
  /** Marks the session as changed now (its activity or transcript moved), bumping the revision. */
  touch(sessionId: string, now: number): void;
  remove(sessionId: string): boolean;
  /** Reserves `count` consecutive transcript positions and returns the first. */
  reservePositions(sessionId: string, count: number): number;
}

interface SessionRow {
  session_id: string;
  title: string;
  title_source: SessionRecord['titleSource'];
  workspace_path: string | null;
  connection_id: string;
  model: string | null;
  permission_mode: PermissionMode;
  archived: number;
  activity: SessionActivity;
  branch_of: string | null;
  revision: number;
  created_at: number;
  updated_at: number;
}

const SELECT = `
  SELECT s.session_id, s.title, s.title_source, s.workspace_path, s.connection_id, s.model,
         s.permission_mode, s.archived, s.revision, s.created_at, s.updated_at,
         COALESCE((SELECT t.status FROM turns t WHERE t.session_id = s.session_id
                   ORDER BY t.ordinal DESC LIMIT 1), 'idle') AS activity,
         (SELECT b.source_session_id FROM session_branches b JOIN sessions src ON src.session_id = b.source_session_id
          WHERE b.session_id = s.session_id) AS branch_of
  FROM sessions s`;

function toRecord(row: SessionRow): SessionRecord {
  return {
    sessionId: row.session_id,
    title: row.title,
    titleSource: row.title_source,
    workspacePath: row.workspace_path,
    connectionId: row.connection_id,
    model: row.model,
    permissionMode: row.permission_mode,
    archived: row.archived === 1,
    activity: row.activity,
    branchOf: row.branch_of,
    revision: row.revision,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function createSessionStore(db: Db): SessionStore {
  const insert = db.prepare(`
    INSERT INTO sessions (session_id, title, title_source, workspace_path, connection_id, model,
                          permission_mode, archived, revision, created_at, updated_at)
    VALUES (@sessionId, @title, @titleSource, @workspacePath, @connectionId, @model,
            @permissionMode, 0, 1, @now, @now)`);
  const get = db.prepare<[string], SessionRow>(`${SELECT} WHERE s.session_id = ?`);
  const setTitle = db.prepare(
    'UPDATE sessions SET title = ?, title_source = ?, revision = revision + 1, updated_at = ? WHERE session_id = ?',
  );
  const setArchived = db.prepare(
    'UPDATE sessions SET archived = ?, revision = revision + 1, updated_at = ? WHERE session_id = ?',
  );
  const configure = db.prepare(
    'UPDATE sessions SET connection_id = @connectionId, model = @model, permission_mode = @permissionMode, workspace_path = @workspacePath, revision = revision + 1, updated_at = @now WHERE session_id = @sessionId',
  );
  const touch = db.prepare('UPDATE sessions SET revision = revision + 1, updated_at = ? WHERE session_id = ?');
  const remove = db.prepare('DELETE FROM sessions WHERE session_id = ?');
  const reserve = db.prepare<[number, string], { first: number }>(
    'UPDATE sessions SET next_position = next_position + ? WHERE session_id = ? RETURNING next_position AS first',
  );

  return {
    insert(session) {
      insert.run(session);
      const record = get.get(session.sessionId);
      if (record === undefined) throw new Error(`Session ${session.sessionId} vanished after insert`);
      return toRecord(record);
    },
    get(sessionId) {
      const row = get.get(sessionId);
      return row === undefined ? null : toRecord(row);
    },
    list({ archived, query, cursor, limit }) {
      const conditions = ['s.archived = @archived'];
      const params: Record<string, unknown> = { archived: archived ? 1 : 0, limit };
      if (query !== undefined && query.trim() !== '') {
        conditions.push("s.title LIKE @pattern ESCAPE '\\'");
        params.pattern = `%${query.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      }
      if (cursor !== undefined) {
        conditions.push('(s.updated_at < @cursorAt OR (s.updated_at = @cursorAt AND s.session_id < @cursorId))');
        params.cursorAt = cursor.updatedAt;
        params.cursorId = cursor.sessionId;
      }
      const rows = db
        .prepare<Record<string, unknown>, SessionRow>(
          `${SELECT} WHERE ${conditions.join(' AND ')} ORDER BY s.updated_at DESC, s.session_id DESC LIMIT @limit`,
        )
        .all(params);
      return rows.map(toRecord);
    },
    setTitle(sessionId, title, source, now) {
      setTitle.run(title, source, now, sessionId);
    },
    setArchived(sessionId, archived, now) {
      setArchived.run(archived ? 1 : 0, now, sessionId);
    },
    configure(sessionId, settings, now) {
      configure.run({ sessionId, ...settings, now });
    },
    touch(sessionId, now) {
      touch.run(now, sessionId);
    },
    remove(sessionId) {
      return remove.run(sessionId).changes > 0;
    },
    reservePositions(sessionId, count) {
      const row = reserve.get(count, sessionId);
      if (row === undefined) throw new Error(`Session ${sessionId} does not exist`);
      return row.first - count;
    },
  };
}
