import type { InteractionRequest } from '../../src-shared/interaction-model';
import type { AnswerDraft, FieldDraft, QuestionChoice } from '../forms/interaction-draft';
import type { DraftStorage } from '../platform/draft-storage';

/** A half-filled answer as kept across reloads: the draft and a permission's reason for Deny. */
export interface SavedInteractionDraft {
  readonly draft: AnswerDraft | null;
  readonly reason: string;
}

const keyOf = (interactionId: string) => `cairn.interaction-draft.${interactionId}`;

/** What was saved, read back: anything else (an older shape, a hand-edited value) is no draft. Plain checks keep zod off the first load. */
function decodeSaved(value: unknown): SavedInteractionDraft | null {
  if (!isRecord(value) || typeof value.reason !== 'string') return null;
  const { draft, reason } = value;
  if (draft === null) return { draft: null, reason };
  if (!isRecord(draft)) return null;
  if (draft.kind === 'question' && isRecordOf(draft.choices, isChoice))
    return { draft: { kind: 'question', choices: draft.choices }, reason };
  if (draft.kind === 'form' && isRecordOf(draft.values, isFieldDraft))
    return { draft: { kind: 'form', values: draft.values }, reason };
  return null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRecordOf<T>(value: unknown, isEntry: (entry: unknown) => entry is T): value is Record<string, T> {
  return isRecord(value) && Object.values(value).every(isEntry);
}

const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((entry) => typeof entry === 'string');

function isChoice(value: unknown): value is QuestionChoice {
  return (
    isRecord(value) && isStrings(value.optionIds) && typeof value.other === 'boolean' && typeof value.text === 'string'
  );
}

function isFieldDraft(value: unknown): value is FieldDraft {
  return typeof value === 'string' || typeof value === 'boolean' || isStrings(value);
}

/** The draft without what must not be written to disk: the text of secret answers. */
function withoutSecrets(request: InteractionRequest, saved: SavedInteractionDraft): SavedInteractionDraft {
  if (request.kind === 'form' && saved.draft?.kind === 'form') {
    const secretFields = new Set(
      request.fields.filter((field) => field.type === 'string' && field.secret === true).map((field) => field.id),
    );
    if (secretFields.size === 0) return saved;
    return {
      ...saved,
      draft: {
        ...saved.draft,
        values: Object.fromEntries(Object.entries(saved.draft.values).filter(([id]) => !secretFields.has(id))),
      },
    };
  }
  if (request.kind !== 'question' || saved.draft?.kind !== 'question') return saved;
  const secret = new Set(request.questions.filter((question) => question.secret).map((question) => question.id));
  if (secret.size === 0) return saved;
  const choices = Object.fromEntries(
    Object.entries(saved.draft.choices).map(([id, choice]) => [id, secret.has(id) ? { ...choice, text: '' } : choice]),
  );
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
        return decodeSaved(JSON.parse(text));
      } catch {
        return null;
      }
    },
    forget(interactionId: string): void {
      storage.remove(keyOf(interactionId));
    },
  };
}
