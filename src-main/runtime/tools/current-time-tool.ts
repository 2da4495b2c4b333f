import type { AgentTool } from '../contract/agent-tool';
import { toolError } from '../contract/agent-tool';

/** Tells the model the current date and time, in UTC and (optionally) in a named time zone. */
export const currentTimeTool: AgentTool = {
  name: 'get_current_time',
  description: 'Returns the current date and time. Optionally pass an IANA time zone such as "Europe/Paris".',
  inputSchema: {
    type: 'object',
    properties: { timeZone: { type: 'string', description: 'An IANA time zone name, e.g. "America/New_York".' } },
    additionalProperties: false,
  },
  readOnly: true,
  async execute(input, context) {
    const timeZone =
      typeof input === 'object' && input !== null && 'timeZone' in input && typeof input.timeZone === 'string'
        ? input.timeZone
        : 'UTC';
    const now = new Date(context.now());
    try {
      const local = new Intl.DateTimeFormat('en-GB', { timeZone, dateStyle: 'full', timeStyle: 'long' }).format(now);
      return { output: { iso: now.toISOString(), timeZone, local }, isError: false };
    } catch {
      return toolError(`Unknown time zone "${timeZone}". Use an IANA name such as "Europe/Paris".`);
    }
  },
};
