import { z } from 'zod';
import { LOAD_SKILL_TOOL_NAME } from '../../../src-shared/skill-model';
import type { AgentTool } from '../contract/agent-tool';
import { toolError } from '../contract/agent-tool';
import { parseToolInput } from '../workspace/workspace-tool-support';
import type { SkillService } from './skill-service';

const input = z.strictObject({ id: z.string().min(1).max(100) });

/** `load_skill { id }`: the full text of one of the skills listed in the agent's instructions, read now. */
export function createLoadSkillTool(skills: () => SkillService): AgentTool {
  return {
    name: LOAD_SKILL_TOOL_NAME,
    description:
      'Loads the full instructions of a skill (one of those listed under "Skills" in your instructions) by its id. Follow the instructions it returns.',
    inputSchema: {
      type: 'object',
      properties: { id: { type: 'string', description: 'The skill id, e.g. "release-notes".' } },
      required: ['id'],
      additionalProperties: false,
    },
    readOnly: true,
    async execute(raw, context) {
      const parsed = parseToolInput(LOAD_SKILL_TOOL_NAME, input, raw);
      if (!parsed.ok) return toolError(parsed.message);
      const loaded = await skills().load(context.sessionId, parsed.value.id);
      return loaded.ok ? { output: loaded.result, isError: false } : toolError(loaded.error.message);
    },
  };
}
