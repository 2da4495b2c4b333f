/** Subagents as clients see them: definitions, child sessions and the tree they form. */
import type { RunStatus, SessionActivity } from './model';

/** How deep a tree may grow (the root is depth 0) and how many children one parent turn may start. */
export const AGENT_DEPTH_LIMIT = 2;
export const AGENT_FAN_OUT_LIMIT = 8;

export type AgentDefinitionSource = 'builtin' | 'workspace' | 'data_dir';

export interface AgentDefinitionSummary {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly source: AgentDefinitionSource;
  /** Tool names the agent may use; null: the parent's whole tool surface. */
  readonly tools: readonly string[] | null;
  readonly model: string | null;
}

export interface BrokenAgentDefinition {
  readonly id: string;
  readonly path: string;
  readonly reason: string;
}

/** One child session: what spawned it and what it was asked. */
export interface AgentChildRecord {
  readonly childSessionId: string;
  readonly spawnId: string;
  readonly rootSessionId: string;
  readonly parentSessionId: string;
  readonly parentTurnId: string;
  readonly parentRunId: string;
  readonly parentToolCallId: string;
  readonly depth: number;
  readonly agentId: string;
  readonly agentName: string;
  readonly task: string;
  readonly initialTurnId: string;
  readonly createdAt: number;
}

export interface AgentTreeNode extends AgentChildRecord {
  readonly activity: SessionActivity;
  /** The status of the child's latest turn, null before it has one. */
  readonly status: RunStatus | null;
  readonly terminalReason: string | null;
}

export interface AgentTree {
  /** Names the tree for agent.stop's `expectedTreeId`. */
  readonly treeId: string;
  readonly rootSessionId: string;
  /** Set once when the tree was failed-stopped, with why. */
  readonly failedReason: string | null;
  /** Every descendant of the root, oldest first. */
  readonly children: readonly AgentTreeNode[];
  /** Tokens of the root and all its descendants together. */
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number; readonly costUsd: number | null };
}

export function agentTreeId(rootSessionId: string): string {
  return `tree:${rootSessionId}`;
}
