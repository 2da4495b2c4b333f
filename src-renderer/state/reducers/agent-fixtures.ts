import type { AgentTreeNode } from '../../../src-shared/agent-model';

/** A child agent's tree node for tests: a worker at depth 1 under root `r`, started by tool call `spawn-t1-1`. */
export function agentNode(overrides: Partial<AgentTreeNode> & { childSessionId: string }): AgentTreeNode {
  return {
    spawnId: `spawn:${overrides.childSessionId}`,
    rootSessionId: 'r',
    parentSessionId: 'r',
    parentTurnId: 't1',
    parentRunId: 'run1',
    parentToolCallId: 'spawn-t1-1',
    depth: 1,
    agentId: 'worker',
    agentName: 'Worker',
    task: 'Do a part of the work',
    initialTurnId: `task-${overrides.childSessionId}`,
    createdAt: 1000,
    activity: 'running',
    status: 'running',
    terminalReason: null,
    ...overrides,
  };
}
