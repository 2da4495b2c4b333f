import { jsonSchema, tool, type JSONSchema7, type ToolSet } from 'ai';
import type { ModelToolSpec } from './provider-types';

/**
 * The tools as the AI SDK describes them to the model. They have no `execute`: the SDK reports the
 * calls and runs nothing; the runtime executes them.
 */
export function toolSetFor(tools: readonly ModelToolSpec[]): ToolSet {
  const set: ToolSet = {};
  for (const spec of tools) {
    set[spec.name] = tool({ description: spec.description, inputSchema: jsonSchema(spec.inputSchema as JSONSchema7) });
  }
  return set;
}
