import type {
  FormField,
  FormRequest,
  FormValue,
  InteractionAnswer,
  Question,
  QuestionAnswer,
  QuestionRequest,
} from '../../src-shared/interaction-model';
import type { AnswerProblem } from '../../src-shared/interaction-validation';
import { validateAnswer } from '../../src-shared/interaction-validation';

/**
 * What the person has entered in an interaction so far, as the controls hold it (text as typed), and
 * how it becomes the answer the host takes. Problems come from the shared `validateAnswer`.
 */

export interface QuestionChoice {
  readonly optionIds: readonly string[];
  /** Whether "Other" is chosen (for a question with options); a text question always uses `text`. */
  readonly other: boolean;
  readonly text: string;
}

export interface QuestionDraft {
  readonly kind: 'question';
  readonly choices: Readonly<Record<string, QuestionChoice>>;
}

/** Form values as the controls hold them: text for text and number fields, booleans, option values. */
export type FieldDraft = string | boolean | readonly string[];

export interface FormDraft {
  readonly kind: 'form';
  readonly values: Readonly<Record<string, FieldDraft>>;
}

export type AnswerDraft = QuestionDraft | FormDraft;

const NO_CHOICE: QuestionChoice = { optionIds: [], other: false, text: '' };

export function initialQuestionDraft(): QuestionDraft {
  return { kind: 'question', choices: {} };
}

export function choiceOf(draft: QuestionDraft, questionId: string): QuestionChoice {
  return draft.choices[questionId] ?? NO_CHOICE;
}

/** Ticks an option: a single-choice question keeps only it (and drops "Other"); a multiple one toggles it. */
export function toggleOption(draft: QuestionDraft, question: Question, optionId: string): QuestionDraft {
  const current = choiceOf(draft, question.id);
  const next: QuestionChoice = question.multiple
    ? {
        ...current,
        optionIds: current.optionIds.includes(optionId)
          ? current.optionIds.filter((id) => id !== optionId)
          : [...current.optionIds, optionId],
      }
    : { ...current, optionIds: [optionId], other: false };
  return { ...draft, choices: { ...draft.choices, [question.id]: next } };
}

/** Chooses (or, for a multiple question, toggles) "Other"; a single-choice question drops its option. */
export function setOther(draft: QuestionDraft, question: Question, other: boolean): QuestionDraft {
  const current = choiceOf(draft, question.id);
  const next: QuestionChoice = question.multiple
    ? { ...current, other }
    : { ...current, other, optionIds: other ? [] : current.optionIds };
  return { ...draft, choices: { ...draft.choices, [question.id]: next } };
}

/** Typing an answer of one's own chooses "Other" with it. */
export function setText(draft: QuestionDraft, question: Question, text: string): QuestionDraft {
  const current = choiceOf(draft, question.id);
  let next: QuestionChoice = { ...current, text };
  if (question.options.length > 0 && text !== '' && !current.other) {
    next = question.multiple ? { ...next, other: true } : { ...next, other: true, optionIds: [] };
  }
  return { ...draft, choices: { ...draft.choices, [question.id]: next } };
}

export function questionAnswers(request: QuestionRequest, draft: QuestionDraft): Record<string, QuestionAnswer> {
  const answers: Record<string, QuestionAnswer> = {};
  for (const question of request.questions) {
    const choice = choiceOf(draft, question.id);
    const typed = question.options.length === 0 || choice.other ? choice.text.trim() : '';
    answers[question.id] = { optionIds: [...choice.optionIds], ...(typed === '' ? {} : { text: typed }) };
  }
  return answers;
}

/** The controls' starting values: each field's default, else empty (booleans start unticked). */
export function initialFormDraft(request: FormRequest): FormDraft {
  const values: Record<string, FieldDraft> = {};
  for (const field of request.fields) values[field.id] = initialFieldValue(field);
  return { kind: 'form', values };
}

function initialFieldValue(field: FormField): FieldDraft {
  switch (field.type) {
    case 'string':
      return field.default ?? '';
    case 'number':
    case 'integer':
      return field.default === undefined ? '' : String(field.default);
    case 'boolean':
      return field.default ?? false;
    case 'single_select':
      return field.default ?? '';
    case 'multi_select':
      return field.default ?? [];
  }
}

/**
 * The form's values for the host: empty fields left out, numbers parsed (text that is not a number is
 * kept as text, so the check says "Enter a number."), single-line text trimmed.
 */
export function formValues(request: FormRequest, draft: FormDraft): Record<string, FormValue> {
  const values: Record<string, FormValue> = {};
  for (const field of request.fields) {
    const raw = draft.values[field.id] ?? initialFieldValue(field);
    const value = fieldValue(field, raw);
    if (value !== undefined) values[field.id] = value;
  }
  return values;
}

function fieldValue(field: FormField, raw: FieldDraft): FormValue | undefined {
  switch (field.type) {
    case 'string': {
      if (typeof raw !== 'string') return undefined;
      const text = field.format === 'multiline' ? raw : raw.trim();
      return text.trim() === '' ? undefined : text;
    }
    case 'number':
    case 'integer': {
      if (typeof raw !== 'string' || raw.trim() === '') return undefined;
      const number = Number(raw.trim());
      return Number.isFinite(number) ? number : raw.trim();
    }
    case 'boolean':
      return typeof raw === 'boolean' ? raw : undefined;
    case 'single_select':
      return typeof raw === 'string' && raw !== '' ? raw : undefined;
    case 'multi_select':
      return Array.isArray(raw) && raw.length > 0 ? [...(raw as readonly string[])] : undefined;
  }
}

/** The accept answer the draft makes for its request. */
export function answerOf(request: QuestionRequest | FormRequest, draft: AnswerDraft): InteractionAnswer {
  if (request.kind === 'question') {
    return {
      action: 'accept',
      answers: questionAnswers(request, draft.kind === 'question' ? draft : initialQuestionDraft()),
    };
  }
  return { action: 'accept', values: formValues(request, draft.kind === 'form' ? draft : initialFormDraft(request)) };
}

/** The problems with the draft: the shared checks, plus an "Other" chosen without its text. */
export function draftProblems(request: QuestionRequest | FormRequest, draft: AnswerDraft): AnswerProblem[] {
  const problems = validateAnswer(request, answerOf(request, draft));
  if (request.kind === 'question' && draft.kind === 'question') {
    for (const question of request.questions) {
      const choice = choiceOf(draft, question.id);
      const flagged = problems.some((problem) => problem.id === question.id);
      if (question.options.length > 0 && choice.other && choice.text.trim() === '' && !flagged) {
        problems.push({ id: question.id, message: 'Type your answer next to “Other”, or untick it.' });
      }
    }
  }
  return problems;
}

/** Problems by the question or field they concern; `null` collects the ones about the whole answer. */
export function problemsById(problems: readonly AnswerProblem[]): ReadonlyMap<string | null, string> {
  const byId = new Map<string | null, string>();
  for (const problem of problems) {
    const known = byId.get(problem.id);
    byId.set(problem.id, known === undefined ? problem.message : `${known} ${problem.message}`);
  }
  return byId;
}

/** A hint of a field's limits, shown under it: "2–60 characters", "1 to 50", "Choose at least 1". */
export function fieldHint(field: FormField): string | null {
  switch (field.type) {
    case 'string': {
      const { minLength: min, maxLength: max } = field;
      if (min !== undefined && max !== undefined) return `${min}–${max} characters`;
      if (min !== undefined) return `At least ${min} characters`;
      if (max !== undefined && field.format === 'multiline') return `Up to ${max} characters`;
      return null;
    }
    case 'number':
    case 'integer': {
      const whole = field.type === 'integer' ? 'A whole number' : 'A number';
      const { minimum: min, maximum: max } = field;
      if (min !== undefined && max !== undefined) return `${whole} from ${formatNumber(min)} to ${formatNumber(max)}`;
      if (min !== undefined) return `${whole}, ${formatNumber(min)} or more`;
      if (max !== undefined) return `${whole}, ${formatNumber(max)} or less`;
      return field.type === 'integer' ? whole : null;
    }
    case 'multi_select': {
      const { minItems: min, maxItems: max } = field;
      if (min !== undefined && max !== undefined) return `Choose ${min}–${max}`;
      if (min !== undefined && min > 0) return `Choose at least ${min}`;
      if (max !== undefined) return `Choose up to ${max}`;
      return null;
    }
    default:
      return null;
  }
}

function formatNumber(value: number): string {
  return value.toLocaleString('en-US');
}
