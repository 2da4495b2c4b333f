import { fail, ok, type Outcome } from '../../../src-shared/errors';
import type { MemoryRecord, MemoryScope } from '../../../src-shared/memory-model';
import type { MemoryStore, MemoryStoreOpening, MemoryWriteResult } from '../../storage/memory-store';
import type { Stores } from '../../storage/stores';
import type { EventBus } from '../ports/event-bus';
import type { Clock, Ids, Logger } from '../ports/ports';

export interface MemoryServiceDeps {
  /** The opened memory database, or why it could not be opened (memory is optional). */
  readonly memory: MemoryStoreOpening;
  readonly stores: Pick<Stores, 'sessions'>;
  readonly bus: EventBus;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly logger: Logger;
}

/** How many memories, and how many characters of them, a session starts with. */
export const BRIEF_LIMITS = { count: 12, chars: 2400 } as const;
const RECALL_LIMIT = 10;

/**
 * Long-term memory: the agent's remember and recall, the person's list, edit and delete, and the
 * brief a session's context starts with. Every write by the agent adds a memory (or finds the same
 * text already there); only the person changes or removes one, and only at the revision they saw.
 */
export class MemoryService {
  private readonly store: MemoryStore | null;
  /** Why memory is unavailable; null when it works. */
  readonly unavailable: string | null;

  constructor(private readonly deps: MemoryServiceDeps) {
    this.store = 'store' in deps.memory ? deps.memory.store : null;
    this.unavailable = 'unavailable' in deps.memory ? deps.memory.unavailable : null;
  }

  /** Says (in the log and to whoever listens) that memory is unavailable, when it is. */
  announce(): void {
    if (this.unavailable === null) return;
    this.deps.logger.warn('The optional memory store could not open; running without memory', {
      reason: this.unavailable,
    });
    this.deps.bus.publish({
      kind: 'host.notice',
      code: 'memory_unavailable',
      sessionId: null,
      message: this.unavailable,
    });
  }

  remember(request: {
    sessionId: string;
    turnId: string;
    text: string;
    scope: MemoryScope;
  }): Outcome<{ memory: MemoryRecord; created: boolean }, 'invalid_input' | 'not_found' | 'operation_unavailable'> {
    const store = this.store;
    if (store === null) return this.unavailableError();
    const session = this.deps.stores.sessions.get(request.sessionId);
    if (session === null) return fail('not_found', 'That session does not exist.');
    if (request.scope === 'workspace' && session.workspacePath === null) {
      return fail(
        'invalid_input',
        'This session has no workspace folder, so a workspace memory has nowhere to belong. Use scope "global", or set a workspace first.',
      );
    }
    const workspacePath = request.scope === 'workspace' ? session.workspacePath : null;
    const same = store.findSame(request.text, workspacePath);
    if (same !== null) return ok({ memory: same, created: false });
    const memory = store.insert({
      memoryId: this.deps.ids.next('memory'),
      text: request.text,
      scope: request.scope,
      workspacePath,
      sourceSessionId: request.sessionId,
      sourceTurnId: request.turnId,
      editedBy: 'agent',
      now: this.deps.clock.now(),
    });
    this.deps.bus.publish({ kind: 'memory.changed', memory });
    return ok({ memory, created: true });
  }

  /** The memories of the session's workspace and the global ones that best match `query`. */
  recall(sessionId: string, query: string): Outcome<{ memories: MemoryRecord[] }, 'operation_unavailable'> {
    if (this.store === null) return this.unavailableError();
    const workspacePath = this.deps.stores.sessions.get(sessionId)?.workspacePath ?? null;
    return ok({ memories: this.store.search(query, workspacePath, RECALL_LIMIT) });
  }

  /** What a session's context starts with: its workspace's and the global memories, newest first, bounded. */
  briefFor(sessionId: string): MemoryRecord[] {
    if (this.store === null) return [];
    const workspacePath = this.deps.stores.sessions.get(sessionId)?.workspacePath ?? null;
    const chosen: MemoryRecord[] = [];
    let chars = 0;
    for (const memory of this.store.newestFor(workspacePath, BRIEF_LIMITS.count)) {
      if (chars + memory.text.length > BRIEF_LIMITS.chars) break;
      chars += memory.text.length;
      chosen.push(memory);
    }
    return chosen;
  }

  list(
    query: string | undefined,
    limit: number | undefined,
  ): Outcome<{ memories: MemoryRecord[] }, 'operation_unavailable'> {
    if (this.store === null) return this.unavailableError();
    return ok({ memories: this.store.list({ ...(query === undefined ? {} : { query }), limit: limit ?? 200 }) });
  }

  update(
    memoryId: string,
    text: string,
    expectedRevision: number,
  ): Outcome<{ memory: MemoryRecord }, 'not_found' | 'operation_unavailable' | 'revision_conflict'> {
    const store = this.store;
    if (store === null) return this.unavailableError();
    const current = store.get(memoryId);
    if (current === null) return missing();
    const result = store.update({
      memoryId,
      text,
      scope: current.scope,
      workspacePath: current.workspacePath,
      expectedRevision,
      now: this.deps.clock.now(),
    });
    return this.settle(result, (memory) => {
      this.deps.bus.publish({ kind: 'memory.changed', memory });
      return { memory };
    });
  }

  remove(
    memoryId: string,
    expectedRevision: number | undefined,
  ): Outcome<{ memoryId: string; removed: true }, 'not_found' | 'operation_unavailable' | 'revision_conflict'> {
    const store = this.store;
    if (store === null) return this.unavailableError();
    return this.settle(store.remove(memoryId, expectedRevision ?? null), () => {
      this.deps.bus.publish({ kind: 'memory.removed', memoryId });
      return { memoryId, removed: true as const };
    });
  }

  close(): void {
    this.store?.close();
  }

  private settle<T>(
    result: MemoryWriteResult,
    onOk: (memory: MemoryRecord) => T,
  ): Outcome<T, 'not_found' | 'revision_conflict'> {
    if ('missing' in result) return missing();
    if ('conflict' in result) {
      return fail(
        'revision_conflict',
        `This memory changed since you opened it (now: “${clip(result.conflict.text)}”). Reload it and try again.`,
      );
    }
    return ok(onOk(result.ok));
  }

  private unavailableError() {
    return fail('operation_unavailable', this.unavailable ?? 'Memory is unavailable.');
  }
}

function missing() {
  return fail('not_found', 'That memory does not exist. It may have been deleted.');
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
