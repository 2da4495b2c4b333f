import { z } from 'zod';
import { AGENT_FAN_OUT_LIMIT } from '../../../src-shared/agent-model';
import type { AgentTool, ToolContext, ToolOutcome } from '../contract/agent-tool';
import { toolError } from '../contract/agent-tool';
import type { AgentService } from './agent-service';

export const SPAWN_AGENT_TOOL_NAME = 'spawn_agent';

const childId = z.string().min(1).max(200);
const spawnInput = z.strictObject({
  agent: z.string().min(1).max(64),
  task: z.string().trim().min(1).max(20_000),
  wait: z.boolean().optional(),
  spawnId: z.string().min(1).max(300).optional(),
  worktree: z.boolean().optional(),
});
const waitInput = z.strictObject({
  ids: z
    .array(childId)
    .min(1)
    .max(AGENT_FAN_OUT_LIMIT * 4),
  timeoutMs: z.number().int().min(0).max(3_600_000).optional(),
});
const sendInput = z.strictObject({ id: childId, text: z.string().trim().min(1).max(20_000) });
const idInput = z.strictObject({ id: childId });

function decode<T>(schema: z.ZodType<T>, input: unknown): T | ToolOutcome {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  return toolError(
    `Invalid input${issue === undefined || issue.path.length === 0 ? '' : ` at ${issue.path.join('.')}`}: ${issue?.message ?? 'unknown problem'}.`,
  );
}

function isOutcome(value: unknown): value is ToolOutcome {
  return typeof value === 'object' && value !== null && 'isError' in value && 'output' in value;
}

function tool(
  spec: Omit<AgentTool, 'execute' | 'readOnly'>,
  schema: z.ZodType,
  run: (input: never, context: ToolContext) => Promise<ToolOutcome> | ToolOutcome,
): AgentTool {
  return {
    ...spec,
    // A child is never wider than its parent, so starting or steering one changes nothing by itself.
    readOnly: true,
    async execute(input, context) {
      const decoded = decode(schema, input);
      if (isOutcome(decoded)) return decoded;
      return run(decoded as never, context);
    },
  };
}

/** The tools an agent uses to start, wait for, steer, stop and resume its child agents. */
export function createAgentTools(service: () => AgentService): AgentTool[] {
  return [
    tool(
      {
        name: SPAWN_AGENT_TOOL_NAME,
        description:
          'Start a child agent on a well-defined part of your work. agent: "explore" (read-only investigation), "worker" (your tools) or a custom agent id. ' +
          'With wait: true the result holds its final report; otherwise you get its id at once and can call wait_agents later.',
        inputSchema: {
          type: 'object',
          properties: {
            agent: { type: 'string', description: 'The agent definition id, e.g. explore or worker.' },
            task: { type: 'string', description: 'Everything the child needs to know to do the task on its own.' },
            wait: { type: 'boolean', description: 'Wait for the child to finish and return its report.' },
            worktree: {
              type: 'boolean',
              description:
                'Give the child its own git worktree (a branch off your workspace’s branch), so its file changes never collide with yours or its siblings’; the person merges them back. Only in a git repository.',
            },
            spawnId: {
              type: 'string',
              description:
                'Optional: your own name for this spawn. Calling spawn_agent again with the same spawnId (e.g. after a restart) returns the same child instead of starting another.',
            },
          },
          required: ['agent', 'task'],
          additionalProperties: false,
        },
      },
      spawnInput,
      (input: z.infer<typeof spawnInput>, context) =>
        service().spawn(context, {
          agent: input.agent,
          task: input.task,
          wait: input.wait ?? false,
          worktree: input.worktree ?? false,
          ...(input.spawnId === undefined ? {} : { spawnId: input.spawnId }),
        }),
    ),
    tool(
      {
        name: 'wait_agents',
        description:
          'Wait for child agents to finish; returns each one’s status and final report (or its status when still running at the timeout).',
        inputSchema: {
          type: 'object',
          properties: { ids: { type: 'array', items: { type: 'string' } }, timeoutMs: { type: 'integer', minimum: 0 } },
          required: ['ids'],
          additionalProperties: false,
        },
      },
      waitInput,
      (input: z.infer<typeof waitInput>, context) => service().wait(context, input.ids, input.timeoutMs ?? null),
    ),
    tool(
      {
        name: 'send_agent',
        description: 'Send a follow-up message to one of your child agents (it starts when the child is free).',
        inputSchema: {
          type: 'object',
          properties: { id: { type: 'string' }, text: { type: 'string' } },
          required: ['id', 'text'],
          additionalProperties: false,
        },
      },
      sendInput,
      (input: z.infer<typeof sendInput>, context) => service().send(context, input.id, input.text),
    ),
    tool(
      {
        name: 'stop_agent',
        description: 'Stop one of your child agents (and its own children).',
        inputSchema: {
          type: 'object',
          properties: { id: { type: 'string' } },
          required: ['id'],
          additionalProperties: false,
        },
      },
      idInput,
      (input: z.infer<typeof idInput>, context) => service().stopChild(context, input.id),
    ),
    tool(
      {
        name: 'resume_agent',
        description: 'Resume a child agent that was interrupted (for example by a restart) or stopped.',
        inputSchema: {
          type: 'object',
          properties: { id: { type: 'string' } },
          required: ['id'],
          additionalProperties: false,
        },
      },
      idInput,
      (input: z.infer<typeof idInput>, context) => service().resumeChild(context, input.id),
    ),
  ];
}
