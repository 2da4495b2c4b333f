import { z } from 'zod';
import type { InteractionRequest } from '../../src-shared/interaction-model';
import type { AnswerDraft } from '../forms/interaction-draft';
import type { DraftStorage } from '../platform/draft-storage';

/** A half-filled answer as kept across reloads: the draft and a permission's reason for Deny. */
export interface SavedInteractionDraft {
  readonly draft: AnswerDraft | null;
  readonly reason: string;
}

const keyOf = (interactionId: string) => `cairn.interaction-draft.${interactionId}`;

const savedSchema = z.object({
  draft: z
    .union([
      z.object({
        kind: z.literal('question'),
        choices: z.record(z.string(), z.object({ optionIds: z.array(z.string()), other: z.boolean(), text: z.string() })),
      }),
      z.object({ kind: z.literal('form'), values: z.record(z.string(), z.union([z.string(), z.boolean(), z.array(z.string())])) }),
    ])
    .nullable(),
  reason: z.string(),
});

/** The draft without what must not be written to disk: the text of secret answers. */
function withoutSecrets(request: InteractionRequest, saved: SavedInteractionDraft): SavedInteractionDraft {
  if (request.kind === 'form' && saved.draft?.kind === 'form') {
    const secretFields = new Set(request.fields.filter((field) => field.type === 'string' && field.secret === true).map((field) => field.id));
    if (secretFields.size === 0) return saved;
    return { ...saved, draft: { ...saved.draft, values: Object.fromEntries(Object.entries(saved.draft.values).filter(([id]) => !secretFields.has(id))) } };
  }
  if (request.kind !== 'question' || saved.draft?.kind !== 'question') return saved;
  const secret = new Set(request.questions.filter((question) => question.secret).map((question) => question.id));
  if (secret.size === 0) return saved;
  const choices = Object.fromEntries(Object.entries(saved.draft.choices).map(([id, choice]) => [id, secret.has(id) ? { ...choice, text: '' } : choice]));
  return { ...saved, draft: { ...saved.draft, choices } };
}

/** Keeps a half-filled answer per interaction, so a reload does not lose it; cleared once it is answered. */
export function interactionDraftStore(storage: DraftStorage) {
  return {
    save(interactionId: string, request: InteractionRequest, saved: SavedInteractionDraft): void {
      storage.write(keyOf(interactionId), JSON.stringify(withoutSecrets(request, saved)));
    },
    load(interactionId: string): SavedInteractionDraft | null {
      const text = storage.read(keyOf(interactionId));
      if (text === null) return null;
      try {
        const parsed = savedSchema.safeParse(JSON.parse(text));
        return parsed.success ? parsed.data : null;
      } catch {
        return null;
      }
    },
    forget(interactionId: string): void {
      storage.remove(keyOf(interactionId));
    },
  };
}
