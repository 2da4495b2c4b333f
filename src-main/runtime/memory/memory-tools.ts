import { z } from 'zod';
import { MAX_MEMORY_TEXT, MEMORY_SCOPES } from '../../../src-shared/memory-model';
import type { AgentTool } from '../contract/agent-tool';
import { toolError } from '../contract/agent-tool';
import { parseToolInput } from '../workspace/workspace-tool-support';
import type { MemoryService } from './memory-service';

export const REMEMBER_TOOL_NAME = 'remember';
export const RECALL_TOOL_NAME = 'recall';

const rememberInput = z.strictObject({
  text: z.string().trim().min(1).max(MAX_MEMORY_TEXT),
  scope: z.enum(MEMORY_SCOPES).default('workspace'),
});
const recallInput = z.strictObject({ query: z.string().trim().min(1).max(200) });

/**
 * remember and recall. Both count as read-only for the permission gate: they touch only Cairn's own
 * memory file (never the workspace), and everything remembered is listed, editable and deletable in
 * the Memory view, so they are offered in every mode without an approval prompt.
 */
export function createMemoryTools(memory: MemoryService): AgentTool[] {
  const remember: AgentTool = {
    name: REMEMBER_TOOL_NAME,
    description:
      'Saves a short, durable fact for later sessions (a preference, a decision, how this project is built). ' +
      'scope "workspace" (default) keeps it for sessions in this workspace folder; "global" for every session. One fact per call.',
    inputSchema: {
      type: 'object',
      properties: {
        text: { type: 'string', description: 'The fact, in one or two sentences.' },
        scope: { type: 'string', enum: [...MEMORY_SCOPES] },
      },
      required: ['text'],
      additionalProperties: false,
    },
    readOnly: true,
    async execute(input, context) {
      const parsed = parseToolInput(REMEMBER_TOOL_NAME, rememberInput, input);
      if (!parsed.ok) return toolError(parsed.message);
      const outcome = memory.remember({ sessionId: context.sessionId, turnId: context.turnId, ...parsed.value });
      if (!outcome.ok) return toolError(outcome.error.message);
      const { memory: saved, created } = outcome.result;
      return {
        output: { memoryId: saved.memoryId, scope: saved.scope, saved: created ? 'new' : 'already remembered' },
        isError: false,
      };
    },
  };
  const recall: AgentTool = {
    name: RECALL_TOOL_NAME,
    description:
      "Searches what was remembered earlier (this workspace's memories and global ones) by keywords; best matches first.",
    inputSchema: {
      type: 'object',
      properties: { query: { type: 'string', description: 'Keywords to look for.' } },
      required: ['query'],
      additionalProperties: false,
    },
    readOnly: true,
    async execute(input, context) {
      const parsed = parseToolInput(RECALL_TOOL_NAME, recallInput, input);
      if (!parsed.ok) return toolError(parsed.message);
      const outcome = memory.recall(context.sessionId, parsed.value.query);
      if (!outcome.ok) return toolError(outcome.error.message);
      return {
        output: {
          memories: outcome.result.memories.map((m) => ({ text: m.text, scope: m.scope, memoryId: m.memoryId })),
        },
        isError: false,
      };
    },
  };
  return [remember, recall];
}
