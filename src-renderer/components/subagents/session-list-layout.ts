import type { AgentChildRecord } from '../../../src-shared/agent-model';

type Links = Readonly<Record<string, AgentChildRecord>>;

/**
 * The sessions the sidebar lists at the top level: a child agent's session is left out when its root
 * is listed (it shows nested under that root instead); one whose root is not listed stays on its own.
 */
export function topLevelIds(listIds: readonly string[], links: Links): readonly string[] {
  const listed = new Set(listIds);
  const top = listIds.filter((sessionId) => {
    const link = links[sessionId];
    return link === undefined || !listed.has(link.rootSessionId);
  });
  return top.length === listIds.length ? listIds : top;
}

/**
 * The one row of the list in the Tab order: the open session's row; for an open child agent, its own
 * row while its root is open and its root's row while that is closed; else the first row.
 */
export function listTabStop(
  topIds: readonly string[],
  selectedId: string | null,
  links: Links,
  expanded: Readonly<Record<string, true>>,
): string | null {
  if (selectedId !== null && topIds.includes(selectedId)) return selectedId;
  const root = selectedId === null ? undefined : links[selectedId]?.rootSessionId;
  if (root !== undefined && topIds.includes(root)) return expanded[root] === true ? selectedId : root;
  return topIds[0] ?? null;
}
