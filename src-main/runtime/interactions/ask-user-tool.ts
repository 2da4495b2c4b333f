import { z } from 'zod';
import type { InteractionRequest } from '../../../src-shared/interaction-model';
import { formRequestSchema, questionRequestSchema } from '../../../src-shared/interaction-model';
import type { AgentTool } from '../contract/agent-tool';
import { toolError } from '../contract/agent-tool';

export const ASK_USER_TOOL_NAME = 'ask_user';

/**
 * The tool input as models see it: close to the structured-question tools of current agent runtimes
 * (a question, a short header, labelled options, multi-select), ids left to Cairn.
 */
const askUserInput = z.union([
  z.strictObject({
    questions: z
      .array(
        z.strictObject({
          question: z.string().min(1),
          header: z.string().min(1),
          options: z
            .array(z.strictObject({ label: z.string().min(1), description: z.string().optional() }))
            .max(6)
            .optional(),
          multiSelect: z.boolean().optional(),
          allowOther: z.boolean().optional(),
          secret: z.boolean().optional(),
        }),
      )
      .min(1)
      .max(4),
  }),
  z.strictObject({ form: z.unknown() }),
]);

const INPUT_SCHEMA = {
  type: 'object',
  description: 'Either `questions` (1–4 multiple-choice or free-text questions) or `form` (typed fields).',
  properties: {
    questions: {
      type: 'array',
      minItems: 1,
      maxItems: 4,
      items: {
        type: 'object',
        properties: {
          question: { type: 'string', description: 'The full question, ending with a question mark.' },
          header: {
            type: 'string',
            description: 'A very short label for the question (at most 12 characters), e.g. "Auth method".',
          },
          options: {
            type: 'array',
            description: '2–6 choices; leave empty for a free-text question.',
            maxItems: 6,
            items: {
              type: 'object',
              properties: { label: { type: 'string' }, description: { type: 'string' } },
              required: ['label'],
              additionalProperties: false,
            },
          },
          multiSelect: { type: 'boolean', description: 'Allow choosing several options.' },
          allowOther: { type: 'boolean', description: 'Let the person type their own answer as well.' },
          secret: {
            type: 'boolean',
            description: 'The answer is sensitive (a password or token): it is masked and not shown in the transcript.',
          },
        },
        required: ['question', 'header'],
        additionalProperties: false,
      },
    },
    form: {
      type: 'object',
      description:
        'A form: { title, description?, fields: [{ id, label, help?, required, type: string|number|integer|boolean|single_select|multi_select, ... }] } (up to 32 fields).',
    },
  },
  additionalProperties: false,
} as const;

/** Builds the interaction request from a model's ask_user input, or says what is wrong with it. */
export function requestFromAskUserInput(input: unknown): InteractionRequest | { error: string } {
  const parsed = askUserInput.safeParse(input);
  if (!parsed.success)
    return {
      error: `ask_user needs "questions" (1–4) or a "form": ${parsed.error.issues[0]?.message ?? 'invalid input'}`,
    };
  if ('form' in parsed.data) {
    const form = formRequestSchema.safeParse({ kind: 'form', ...(parsed.data.form as object) });
    return form.success
      ? form.data
      : {
          error: `The form is not valid: ${form.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
        };
  }
  const request = questionRequestSchema.safeParse({
    kind: 'question',
    questions: parsed.data.questions.map((question, index) => {
      const options = (question.options ?? []).map((option, optionIndex) => ({
        id: `o${optionIndex + 1}`,
        label: option.label,
        ...(option.description === undefined ? {} : { description: option.description }),
      }));
      return {
        id: `q${index + 1}`,
        header: question.header.slice(0, 40),
        prompt: question.question,
        options,
        multiple: question.multiSelect ?? false,
        allowOther: options.length === 0 ? true : (question.allowOther ?? false),
        secret: question.secret ?? false,
      };
    }),
  });
  return request.success
    ? request.data
    : { error: `The questions are not valid: ${request.error.issues.map((issue) => issue.message).join('; ')}` };
}

/** Asks the person; the run waits for their answer without holding anything in memory. */
export const askUserTool: AgentTool = {
  name: ASK_USER_TOOL_NAME,
  description:
    'Ask the person a question only they can answer (a decision, a preference, missing information), or give them a short form to fill in. The turn pauses until they answer; their answer is the tool result.',
  inputSchema: INPUT_SCHEMA,
  readOnly: true,
  async execute(input) {
    const request = requestFromAskUserInput(input);
    return 'error' in request ? toolError(request.error) : { suspend: request };
  },
};
