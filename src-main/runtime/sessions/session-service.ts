import type { LiveRunProgress } from '../../../src-shared/run-progress';
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { fail, ok, type Outcome } from '../../../src-shared/errors';
import type { PermissionMode, SessionRecord, TranscriptItem, TranscriptPage } from '../../../src-shared/model';
import type { SessionListResult, SessionSnapshot } from '../../../src-shared/operations';
import type { Stores } from '../../storage/stores';
import type { EventBus } from '../ports/event-bus';
import type { Clock, Ids } from '../ports/ports';
import { WORKHUB_SESSION_ID } from '../../../src-shared/workhub-model';
import { DEFAULT_SESSION_TITLE } from './session-title';
import type { ConnectionService } from '../connections/connection-service';
import { descendantSessionIds } from './session-tree';
import { childModeRefusal, descendantsToNarrow } from './child-permission-mode';
import { systemFolderReason } from '../workspace/workspace-paths';

/**
 * What archiving or removing a session does to its turns: Stop, and drop the queued follow-ups. The
 * turn service, handed in by the composition root (turns sit above sessions, which never import them).
 */
export interface SessionTurns {
  stop(sessionId: string, turnId: undefined, source: string): unknown;
  cancelQueued(sessionId: string): unknown;
}

export interface SessionServiceDeps {
  readonly stores: Stores;
  readonly bus: EventBus;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly turns: SessionTurns;
  readonly connections: ConnectionService;
  /** What a session's live run waits on right now. */
  readonly progressOf: (sessionId: string) => LiveRunProgress | null;
  /** The sandbox: the mode new sessions start in, and why Auto is refused here (null when it is not). */
  readonly sandbox: { defaultMode(): PermissionMode; autoRefusal(): string | null };
  /** The person's SessionEnd hooks, told when a session is archived or removed. */
  readonly sessionEnded?: (sessionId: string, reason: 'archived' | 'removed') => void;
}

export interface CreateSessionRequest {
  /** Chosen by the caller (a scheduled firing plans its session's id before creating it). */
  readonly sessionId?: string;
  readonly title?: string;
  readonly workspacePath?: string;
  readonly connectionId?: string;
  readonly model?: string;
  readonly permissionMode?: PermissionMode;
}

export const DEFAULT_PAGE_SIZE = 50;
/** A snapshot opened at a search hit holds this many messages around it. */
export const AROUND_PAGE_SIZE = 120;

/** Creates, lists, renames, archives and removes sessions, and reads their transcripts. */
export class SessionService {
  constructor(private readonly deps: SessionServiceDeps) {}

  create(request: CreateSessionRequest): Outcome<{ session: SessionRecord }, 'invalid_input'> {
    const { stores, clock, ids, bus, connections } = this.deps;
    const fallback = connections.defaultTarget();
    const connectionId = request.connectionId ?? fallback.connectionId;
    if (connections.get(connectionId) === null) return unknownConnection(connectionId);
    const workspace = request.workspacePath === undefined ? null : checkWorkspace(request.workspacePath);
    if (workspace !== null && 'error' in workspace) return fail('invalid_input', workspace.error);
    const autoRefusal = request.permissionMode === 'auto' ? this.deps.sandbox.autoRefusal() : null;
    if (autoRefusal !== null) return fail('invalid_input', autoRefusal);
    const model = request.model ?? (connectionId === fallback.connectionId ? fallback.modelId : null);
    const session = stores.transaction(() =>
      stores.sessions.insert({
        sessionId: request.sessionId ?? ids.next('session'),
        title: request.title ?? DEFAULT_SESSION_TITLE,
        titleSource: request.title === undefined ? 'default' : 'user',
        workspacePath: workspace?.path ?? null,
        connectionId,
        model,
        permissionMode: request.permissionMode ?? this.deps.sandbox.defaultMode(),
        now: clock.now(),
      }),
    );
    bus.publish({ kind: 'session.changed', session });
    return ok({ session });
  }

  list(request: {
    archived?: boolean;
    query?: string;
    cursor?: string;
    limit?: number;
  }): Outcome<SessionListResult, 'invalid_input'> {
    const limit = request.limit ?? 50;
    let cursor: { updatedAt: number; sessionId: string } | undefined;
    if (request.cursor !== undefined) {
      const decoded = decodeCursor(request.cursor);
      if (decoded === null) return fail('invalid_input', 'The list cursor is not one this host gave out.');
      cursor = decoded;
    }
    const rows = this.deps.stores.sessions
      .list({
        archived: request.archived ?? false,
        ...(request.query === undefined ? {} : { query: request.query }),
        ...(cursor === undefined ? {} : { cursor }),
        limit: limit + 2,
      })
      .filter((session) => session.sessionId !== WORKHUB_SESSION_ID);
    const sessions = rows.slice(0, limit);
    const last = sessions.at(-1);
    const nextCursor = rows.length > limit && last !== undefined ? encodeCursor(last) : null;
    return ok({ sessions, nextCursor });
  }

  /** The session with its newest page — or, with `around` (a search hit's position), the page around it. */
  get(sessionId: string, around?: number): Outcome<SessionSnapshot, 'not_found'> {
    const { stores } = this.deps;
    const session = stores.sessions.get(sessionId);
    if (session === null) return missingSession();
    return ok({
      session,
      transcript:
        around === undefined
          ? this.readPage(sessionId, null, DEFAULT_PAGE_SIZE)
          : this.readPageAround(sessionId, around, AROUND_PAGE_SIZE),
      activeTurn: stores.turns.activeTurn(sessionId),
      queue: stores.queue.queued(sessionId),
      runProgress: this.deps.progressOf(sessionId),
    });
  }

  /** A page of the transcript: the newest, the one before `before`, the one after `after`, or the one around `around`. */
  page(
    sessionId: string,
    range: {
      readonly before?: number | undefined;
      readonly after?: number | undefined;
      readonly around?: number | undefined;
    },
    limit: number | undefined,
  ): Outcome<TranscriptPage, 'not_found'> {
    if (this.deps.stores.sessions.get(sessionId) === null) return missingSession();
    if (range.after !== undefined) return ok(this.readPageAfter(sessionId, range.after, limit ?? DEFAULT_PAGE_SIZE));
    if (range.around !== undefined) return ok(this.readPageAround(sessionId, range.around, limit ?? AROUND_PAGE_SIZE));
    return ok(this.readPage(sessionId, range.before ?? null, limit ?? DEFAULT_PAGE_SIZE));
  }

  rename(
    sessionId: string,
    title: string,
    expectedRevision: number | undefined,
  ): Outcome<{ session: SessionRecord }, 'not_found' | 'revision_conflict'> {
    const { stores, clock, bus } = this.deps;
    const outcome = stores.transaction((): Outcome<{ session: SessionRecord }, 'not_found' | 'revision_conflict'> => {
      const session = stores.sessions.get(sessionId);
      if (session === null) return missingSession();
      if (expectedRevision !== undefined && session.revision !== expectedRevision) {
        return fail(
          'revision_conflict',
          `The session changed since you read it (revision ${session.revision}, you had ${expectedRevision}). Reload and try again.`,
        );
      }
      stores.sessions.setTitle(sessionId, title, 'user', clock.now());
      return ok({ session: requireSession(stores, sessionId) });
    });
    if (outcome.ok) bus.publish({ kind: 'session.changed', session: outcome.result.session });
    return outcome;
  }

  /** Changes the connection, model or permission mode; the next turn uses them. */
  configure(request: {
    sessionId: string;
    connectionId?: string;
    model?: string | null;
    permissionMode?: PermissionMode;
    workspacePath?: string | null;
    expectedRevision?: number;
  }): Outcome<{ session: SessionRecord }, 'invalid_input' | 'not_found' | 'revision_conflict' | 'session_archived'> {
    const { stores, clock, bus, connections } = this.deps;
    const current = stores.sessions.get(request.sessionId);
    if (current === null) return missingSession();
    if (current.archived) return fail('session_archived', 'This session is archived. Unarchive it to change it.');
    if (request.expectedRevision !== undefined && current.revision !== request.expectedRevision) {
      return fail(
        'revision_conflict',
        `The session changed since you read it (revision ${current.revision}, you had ${request.expectedRevision}). Reload and try again.`,
      );
    }
    if (request.connectionId !== undefined && connections.get(request.connectionId) === null)
      return unknownConnection(request.connectionId);
    const modeRefusal =
      request.permissionMode === undefined
        ? null
        : request.permissionMode === 'auto' && request.permissionMode !== current.permissionMode
          ? this.deps.sandbox.autoRefusal()
          : childModeRefusal(stores, request.sessionId, request.permissionMode);
    if (modeRefusal !== null) return fail('invalid_input', modeRefusal);
    const workspace =
      request.workspacePath === undefined || request.workspacePath === null
        ? null
        : checkWorkspace(request.workspacePath);
    if (workspace !== null && 'error' in workspace) return fail('invalid_input', workspace.error);
    const connectionChanged = request.connectionId !== undefined && request.connectionId !== current.connectionId;
    const changed = stores.transaction(() => {
      stores.sessions.configure(
        request.sessionId,
        {
          connectionId: request.connectionId ?? current.connectionId,
          // A new connection without a named model uses that connection's default.
          model: request.model !== undefined ? request.model : connectionChanged ? null : current.model,
          permissionMode: request.permissionMode ?? current.permissionMode,
          workspacePath: request.workspacePath === undefined ? current.workspacePath : (workspace?.path ?? null),
        },
        clock.now(),
      );
      // Child agents are never wider than their parent: narrowing a session narrows them too.
      const narrowed = descendantsToNarrow(
        stores,
        request.sessionId,
        request.permissionMode ?? current.permissionMode,
      ).map(({ sessionId, mode }) => {
        const child = requireSession(stores, sessionId);
        stores.sessions.configure(
          sessionId,
          {
            connectionId: child.connectionId,
            model: child.model,
            permissionMode: mode,
            workspacePath: child.workspacePath,
          },
          clock.now(),
        );
        return requireSession(stores, sessionId);
      });
      return { session: requireSession(stores, request.sessionId), narrowed };
    });
    bus.publish({ kind: 'session.changed', session: changed.session });
    for (const child of changed.narrowed) bus.publish({ kind: 'session.changed', session: child });
    return ok({ session: changed.session });
  }

  archive(
    sessionId: string,
    archived: boolean,
  ): Outcome<{ session: SessionRecord }, 'not_found' | 'operation_unavailable'> {
    const { stores, clock, bus, turns } = this.deps;
    if (sessionId === WORKHUB_SESSION_ID) return builtIn();
    const current = stores.sessions.get(sessionId);
    if (current === null) return missingSession();
    if (current.archived === archived) return ok({ session: current });
    const members = [sessionId, ...descendantSessionIds(stores.agents, sessionId)];
    if (archived) for (const member of members) turns.stop(member, undefined, 'session_archived');
    const changed = stores.transaction(() =>
      members.map((member) => {
        stores.sessions.setArchived(member, archived, clock.now());
        if (archived) turns.cancelQueued(member);
        return requireSession(stores, member);
      }),
    );
    for (const member of changed) bus.publish({ kind: 'session.changed', session: member });
    if (archived) this.deps.sessionEnded?.(sessionId, 'archived');
    return ok({ session: changed[0]! });
  }

  remove(sessionId: string): Outcome<{ sessionId: string; removed: true }, 'not_found' | 'operation_unavailable'> {
    const { stores, bus, turns } = this.deps;
    if (sessionId === WORKHUB_SESSION_ID) return builtIn();
    if (stores.sessions.get(sessionId) === null) return missingSession();
    const members = [sessionId, ...descendantSessionIds(stores.agents, sessionId)];
    for (const member of members) turns.stop(member, undefined, 'session_removed');
    const link = stores.agents.get(sessionId);
    this.deps.sessionEnded?.(sessionId, 'removed');
    stores.transaction(() => {
      for (const member of [...members].reverse()) stores.sessions.remove(member);
      if (link === null) stores.agents.forgetTree(sessionId);
      // The parent stays: a replay of the spawn that started this child must not start it again.
      else stores.agents.rememberRemovedSpawn(link, this.deps.clock.now());
    });
    for (const member of members) bus.publish({ kind: 'session.removed', sessionId: member });
    // The tree a removed child belonged to changed: its clients re-read it.
    if (link !== null) bus.publish({ kind: 'agent.changed', rootSessionId: link.rootSessionId, child: null });
    return ok({ sessionId, removed: true });
  }

  private readPage(sessionId: string, before: number | null, limit: number): TranscriptPage {
    return this.pageOf(sessionId, this.deps.stores.transcript.page(sessionId, before, limit));
  }

  private readPageAfter(sessionId: string, after: number, limit: number): TranscriptPage {
    return this.pageOf(sessionId, this.deps.stores.transcript.pageAfter(sessionId, after, limit));
  }

  /**
   * `limit` messages around `position`: a third of them from it on (it included), the rest before it —
   * more before when the newest is near, so that a page there is full too; past the newest, the newest page.
   */
  private readPageAround(sessionId: string, position: number, limit: number): TranscriptPage {
    const { transcript } = this.deps.stores;
    const newer = transcript.pageAfter(sessionId, position - 1, Math.max(1, Math.floor(limit / 3)));
    const before = newer[0]?.position ?? position;
    const older = transcript.page(sessionId, before, limit - newer.length);
    return this.pageOf(sessionId, [...older, ...newer]);
  }

  /** A run of items as a page: their turns, and whether older and newer items remain. */
  private pageOf(sessionId: string, items: readonly TranscriptItem[]): TranscriptPage {
    const { stores } = this.deps;
    const first = items[0];
    const last = items.at(-1);
    const nextBefore =
      first !== undefined && stores.transcript.hasOlder(sessionId, first.position) ? first.position : null;
    // A page read around a search hit may end before the newest message.
    const nextAfter = last !== undefined && stores.transcript.hasNewer(sessionId, last.position) ? last.position : null;
    const turnIds = [...new Set(items.map((item) => item.turnId))];
    return { items, turns: stores.turns.turnsByIds(sessionId, turnIds), nextBefore, nextAfter };
  }
}

function requireSession(stores: Stores, sessionId: string): SessionRecord {
  const session = stores.sessions.get(sessionId);
  if (session === null) throw new Error(`Session ${sessionId} vanished`);
  return session;
}

/** A workspace must be an existing folder on the host, not a system folder; it is kept as an absolute path. */
function checkWorkspace(path: string): { path: string } | { error: string } {
  if (!isAbsolute(path)) return { error: `The workspace must be an absolute folder path, not "${path}".` };
  const system = systemFolderReason(resolve(path));
  if (system !== null) return { error: system };
  try {
    if (!statSync(path).isDirectory()) return { error: `${path} is a file, not a folder.` };
    const real = systemFolderReason(realpathSync(path));
    if (real !== null) return { error: `${path} leads to a system folder. ${real}` };
  } catch {
    return { error: `The folder ${path} does not exist on this machine.` };
  }
  return { path: resolve(path) };
}

function builtIn() {
  return fail('operation_unavailable', 'The WorkHub is built in; it cannot be archived or deleted.');
}

function unknownConnection(connectionId: string) {
  return fail('invalid_input', `There is no connection "${connectionId}". Pick one from Settings → Connections.`);
}

function missingSession() {
  return fail('not_found', 'That session does not exist. It may have been deleted.');
}

function encodeCursor(session: SessionRecord): string {
  return Buffer.from(JSON.stringify([session.updatedAt, session.sessionId])).toString('base64url');
}

function decodeCursor(cursor: string): { updatedAt: number; sessionId: string } | null {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && typeof parsed[0] === 'number' && typeof parsed[1] === 'string') {
      return { updatedAt: parsed[0], sessionId: parsed[1] };
    }
    return null;
  } catch {
    return null;
  }
}
