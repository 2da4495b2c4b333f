import { z } from 'zod';
import type { AgentChildRecord, AgentDefinitionSummary, AgentTree, BrokenAgentDefinition } from '../agent-model';
import { wellFormedString } from '../well-formed-string';
import { defineOperation } from './define-operation';
import { id, source } from './fields';

export const agentOperations = {
  /** The whole agent tree a session belongs to (root, every descendant with its status, and the usage of all). */
  'agent.tree': defineOperation<{ tree: AgentTree }>()({
    mode: 'query',
    input: z.strictObject({ sessionId: id }),
    errors: ['not_found'],
  }),
  /**
   * Stops a root's turn and every live descendant (each records `parent_stopped`). Refused with
   * `operation_conflict`, nothing changed, when the session is a child or the tree id does not match.
   */
  'agent.stop': defineOperation<{ treeId: string; stoppedChildren: number }>()({
    mode: 'command',
    input: z.strictObject({
      rootSessionId: id,
      expectedTreeId: wellFormedString().min(1).max(200).optional(),
      source: source.optional(),
    }),
    errors: ['not_found', 'operation_conflict'],
  }),
  /** The agents a session can spawn, and the person's definitions that are broken (with why). */
  'agent.definitions': defineOperation<{
    definitions: readonly AgentDefinitionSummary[];
    broken: readonly BrokenAgentDefinition[];
  }>()({
    mode: 'query',
    input: z.strictObject({ sessionId: id }),
    errors: ['not_found'],
  }),
  /** Every child session's link to its parent (the sidebar nests children under their root). */
  'agent.links': defineOperation<{ links: readonly AgentChildRecord[] }>()({
    mode: 'query',
    input: z.strictObject({}),
    errors: [],
  }),
} as const;
