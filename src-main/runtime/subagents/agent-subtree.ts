import type { AgentStore } from '../../storage/agent-store';

/**
 * The child agents' sessions below a session (its children, their children, …), each parent before
 * its children. A session goes with the session that started it: archiving or deleting one does the
 * same to everything below it, so no child is left without its parent.
 */
export function descendantSessionIds(agents: AgentStore, sessionId: string): string[] {
  const found: string[] = [];
  const queue = [sessionId];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const child of agents.childrenOf(next)) {
      if (found.includes(child.childSessionId) || child.childSessionId === sessionId) continue;
      found.push(child.childSessionId);
      queue.push(child.childSessionId);
    }
  }
  return found;
}
