import { z } from 'zod';
import { wellFormedString } from './well-formed-string';

/** The WorkHub router's proposal as the host decodes it (the model's answer, a stored decision); its types are re-exported by workhub-model.ts. */

const ref = wellFormedString().min(1).max(64);
const text = wellFormedString().trim().min(1).max(20_000);

export const workTargetSchema = z.union([
  z.strictObject({ candidateRef: ref }),
  z.strictObject({ delegationActionId: wellFormedString().min(1).max(128) }),
]);
export type WorkTarget = z.infer<typeof workTargetSchema>;

export const proposalSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('answer_here'), text }),
  z.strictObject({ kind: z.literal('clarify'), question: text }),
  z.strictObject({
    kind: z.literal('create_new'),
    title: wellFormedString().trim().min(1).max(200),
    workspace: wellFormedString().max(4096).nullable(),
    text,
  }),
  z.strictObject({ kind: z.literal('delegate_existing'), candidateRef: ref, text }),
  /** Several candidates fit: ask the person with a form (the candidates, plus "start new work"). */
  z.strictObject({ kind: z.literal('choose'), candidateRefs: z.array(ref).min(2).max(32), text }),
  z.strictObject({ kind: z.literal('stop_work'), target: workTargetSchema }),
  z.strictObject({ kind: z.literal('resume_work'), target: workTargetSchema }),
  z.strictObject({
    kind: z.literal('correct'),
    replacesActionId: wellFormedString().min(1).max(128),
    target: z.union([
      z.strictObject({ candidateRef: ref }),
      z.strictObject({
        createNew: z.strictObject({
          title: wellFormedString().trim().min(1).max(200),
          workspace: wellFormedString().max(4096).nullable(),
        }),
      }),
    ]),
  }),
]);
export type Proposal = z.infer<typeof proposalSchema>;
