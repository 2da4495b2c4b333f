import type { ConversationMessage, ModelToolSpec } from '../../runtime/connections/providers';

/** A conversation with everything a request must carry: a tool call, its result, a failed tool, reasoning. */
export const SAMPLE_CONVERSATION: readonly ConversationMessage[] = [
  { role: 'user', text: 'What is the weather in Oslo, and what is in notes.txt?' },
  {
    role: 'assistant',
    text: 'Let me check both.',
    reasoning: 'I need the weather tool and the file tool.',
    toolCalls: [
      { toolCallId: 'call_1', toolName: 'get_weather', input: { city: 'Oslo' } },
      { toolCallId: 'call_2', toolName: 'read_file', input: { path: 'notes.txt' } },
    ],
  },
  {
    role: 'tool',
    results: [
      { toolCallId: 'call_1', toolName: 'get_weather', output: { temperatureC: -3, sky: 'snow' }, isError: false },
      { toolCallId: 'call_2', toolName: 'read_file', output: 'No such file: notes.txt', isError: true },
    ],
  },
  { role: 'user', text: 'Thanks. Anything else?' },
];

export const SAMPLE_TOOLS: readonly ModelToolSpec[] = [
  {
    name: 'get_weather',
    description: 'The current weather in a city.',
    inputSchema: {
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
      additionalProperties: false,
    },
  },
  {
    name: 'read_file',
    description: 'Reads a file in the workspace.',
    inputSchema: {
      type: 'object',
      properties: { path: { type: 'string' } },
      required: ['path'],
      additionalProperties: false,
    },
  },
];

export const SAMPLE_SYSTEM = 'You are a helpful agent.';
