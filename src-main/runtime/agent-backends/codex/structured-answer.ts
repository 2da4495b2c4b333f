import { z } from 'zod';
import type { StructuredAnswer } from '../../../../src-shared/codex-model';

/**
 * The structured answer a WorkHub delegation asks of a Codex turn: whether the work is done, needs
 * the person, or is blocked, with a summary. Codex gets it as the turn's `outputSchema`; its final
 * message is validated here, and an invalid one is recorded as invalid, never guessed.
 */
export const DELEGATION_OUTPUT_SCHEMA = {
  type: 'object',
  properties: {
    outcome: { type: 'string', enum: ['done', 'needs_input', 'blocked'] },
    summary: { type: 'string' },
  },
  required: ['outcome', 'summary'],
  additionalProperties: false,
} as const;

const delegationAnswerSchema = z.strictObject({
  outcome: z.enum(['done', 'needs_input', 'blocked']),
  summary: z.string().max(20_000),
});

export function validateDelegationAnswer(finalMessage: string): StructuredAnswer {
  let parsed: unknown;
  try {
    parsed = JSON.parse(finalMessage);
  } catch {
    return { valid: false, problem: 'The final message is not JSON.' };
  }
  const checked = delegationAnswerSchema.safeParse(parsed);
  if (!checked.success)
    return {
      valid: false,
      problem: checked.error.issues.map((issue) => `${issue.path.join('.') || 'answer'}: ${issue.message}`).join('; '),
    };
  return { valid: true, value: checked.data };
}
