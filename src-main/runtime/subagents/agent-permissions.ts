import type { PermissionMode } from '../../../src-shared/model';
import type { Stores } from '../../storage/stores';
import { descendantSessionIds } from './agent-subtree';

const MODE_RANK: Record<PermissionMode, number> = { explore: 0, ask: 1, auto: 2, full: 3 };

export function isWider(mode: PermissionMode, than: PermissionMode): boolean {
  return MODE_RANK[mode] > MODE_RANK[than];
}

/** The narrower of two modes. */
export function narrower(a: PermissionMode, b: PermissionMode): PermissionMode {
  return isWider(a, b) ? b : a;
}

/**
 * Why a session may not take `mode`: a child agent's mode is never wider than its parent's. Null
 * when it may (or the session is not a child).
 */
export function childModeRefusal(stores: Stores, sessionId: string, mode: PermissionMode): string | null {
  const link = stores.agents.get(sessionId);
  const parentMode = link === null ? null : (stores.sessions.get(link.parentSessionId)?.permissionMode ?? null);
  if (parentMode === null || !isWider(mode, parentMode)) return null;
  return `This is a child agent: its permission mode cannot be wider than its parent’s (${parentMode}). Change the parent’s mode first.`;
}

/**
 * The descendants of a session whose mode became wider than their parent's once the session's mode
 * is `mode`, with the mode each narrows to (parents before their children). Inside a transaction
 * that writes them, this keeps every child no wider than its parent.
 */
export function descendantsToNarrow(
  stores: Stores,
  sessionId: string,
  mode: PermissionMode,
): { sessionId: string; mode: PermissionMode }[] {
  const modes = new Map<string, PermissionMode>([[sessionId, mode]]);
  const changes: { sessionId: string; mode: PermissionMode }[] = [];
  for (const childId of descendantSessionIds(stores.agents, sessionId)) {
    const child = stores.sessions.get(childId);
    const parentId = stores.agents.get(childId)?.parentSessionId;
    const parentMode = parentId === undefined ? undefined : modes.get(parentId);
    if (child === null || parentMode === undefined) continue;
    const next = narrower(child.permissionMode, parentMode);
    modes.set(childId, next);
    if (next !== child.permissionMode) changes.push({ sessionId: childId, mode: next });
  }
  return changes;
}
