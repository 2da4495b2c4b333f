import { z } from 'zod';
import type { AgentTool } from '../contract/agent-tool';
import { toolError } from '../contract/agent-tool';
import type { OffloadStore } from './offload';

const DEFAULT_LIMIT = 8_000;
const MAX_LIMIT = 32_000;

const Input = z.strictObject({
  handle: z.string().regex(/^[0-9a-f]{64}$/),
  offset: z.number().int().min(0).optional(),
  limit: z.number().int().min(1).max(MAX_LIMIT).optional(),
});

/** Reads part of a tool output that was too long to send whole (the model was given its handle). */
export function readOutputTool(offload: OffloadStore): AgentTool {
  return {
    name: 'read_output',
    description:
      'Reads part of an earlier tool output that was too long to show whole. Pass the handle it came with, a character offset (default 0) and a limit (default 8000, at most 32000).',
    inputSchema: {
      type: 'object',
      properties: {
        handle: { type: 'string', description: 'The handle given with the shortened output.' },
        offset: { type: 'integer', minimum: 0, description: 'The first character to read.' },
        limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, description: 'How many characters to read.' },
      },
      required: ['handle'],
      additionalProperties: false,
    },
    readOnly: true,
    async execute(input) {
      const parsed = Input.safeParse(input);
      if (!parsed.success)
        return toolError(
          'read_output needs { handle, offset?, limit? } with the handle given with a shortened output.',
        );
      const text = offload.get(parsed.data.handle);
      if (text === null) return toolError('No stored output has that handle.');
      const offset = Math.min(parsed.data.offset ?? 0, text.length);
      const end = Math.min(text.length, offset + (parsed.data.limit ?? DEFAULT_LIMIT));
      return {
        output: { text: text.slice(offset, end), offset, end, totalChars: text.length, more: end < text.length },
        isError: false,
      };
    },
  };
}
