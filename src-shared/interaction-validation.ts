import type { FormField, FormValue, InteractionAnswer, InteractionRequest, QuestionAnswer } from './interaction-model';

/** What a secret answer shows in place of its text. */
export const SECRET_MASK = '••••••';

/** A problem with an answer, next to the question or field it concerns (null: the answer as a whole). */
export interface AnswerProblem {
  readonly id: string | null;
  readonly message: string;
}

/**
 * Checks an answer against the request it answers. The host refuses an answer with any problem
 * (nothing is recorded); the renderer shows the same messages next to the fields.
 */
export function validateAnswer(request: InteractionRequest, answer: InteractionAnswer): AnswerProblem[] {
  if (answer.action === 'deny') {
    return request.kind === 'permission' || request.kind === 'network'
      ? []
      : [{ id: null, message: 'Deny answers a permission request or a blocked host; decline a question or a form.' }];
  }
  if (answer.action !== 'accept') return [];
  if (request.kind === 'permission') {
    return 'decision' in answer ? [] : [{ id: null, message: 'Choose allow once, allow for this session, or deny.' }];
  }
  if (request.kind === 'network') {
    return 'network' in answer
      ? []
      : [{ id: null, message: 'Choose allow once, allow for this session, always allow, or deny (network).' }];
  }
  if ('network' in answer) return [{ id: null, message: 'A network decision answers only a blocked host.' }];
  if (request.kind === 'question') {
    if (!('answers' in answer)) return [{ id: null, message: 'Answer the questions (answers), not form values.' }];
    return validateQuestions(request, answer.answers);
  }
  if (!('values' in answer)) return [{ id: null, message: 'Fill in the form (values), not question answers.' }];
  return validateForm(request.fields, answer.values);
}

function validateQuestions(
  request: Extract<InteractionRequest, { kind: 'question' }>,
  answers: Readonly<Record<string, QuestionAnswer>>,
): AnswerProblem[] {
  const problems: AnswerProblem[] = [];
  const known = new Set(request.questions.map((question) => question.id));
  for (const id of Object.keys(answers))
    if (!known.has(id)) problems.push({ id, message: `There is no question "${id}".` });
  for (const question of request.questions) {
    const answer = answers[question.id];
    const text = answer?.text?.trim() ?? '';
    const chosen = answer?.optionIds ?? [];
    if (answer === undefined || (chosen.length === 0 && text === '')) {
      // A question with no options is a free-text field: there is nothing to choose, only to write.
      const message =
        question.options.length === 0
          ? 'Write an answer.'
          : question.allowOther
            ? 'Choose an answer or write your own.'
            : 'Choose an answer.';
      problems.push({ id: question.id, message });
      continue;
    }
    const optionIds = new Set(question.options.map((option) => option.id));
    const unknown = chosen.filter((id) => !optionIds.has(id));
    if (unknown.length > 0) problems.push({ id: question.id, message: `Not an option: ${unknown.join(', ')}.` });
    if (new Set(chosen).size !== chosen.length)
      problems.push({ id: question.id, message: 'An option was chosen twice.' });
    if (text !== '' && !question.allowOther)
      problems.push({ id: question.id, message: 'This question takes one of its options, not your own text.' });
    if (!question.multiple && chosen.length + (text === '' ? 0 : 1) > 1)
      problems.push({ id: question.id, message: 'Choose only one answer.' });
  }
  return problems;
}

function validateForm(fields: readonly FormField[], values: Readonly<Record<string, FormValue>>): AnswerProblem[] {
  const problems: AnswerProblem[] = [];
  const known = new Set(fields.map((field) => field.id));
  for (const id of Object.keys(values))
    if (!known.has(id)) problems.push({ id, message: `There is no field "${id}".` });
  for (const field of fields) {
    const value = values[field.id];
    const empty = value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
    if (empty) {
      if (field.required) problems.push({ id: field.id, message: `${field.label} is required.` });
      continue;
    }
    const message = fieldProblem(field, value);
    if (message !== null) problems.push({ id: field.id, message });
  }
  return problems;
}

function fieldProblem(field: FormField, value: FormValue): string | null {
  switch (field.type) {
    case 'string': {
      if (typeof value !== 'string') return 'Enter text.';
      if (field.minLength !== undefined && value.length < field.minLength)
        return `Use at least ${field.minLength} characters.`;
      if (field.maxLength !== undefined && value.length > field.maxLength)
        return `Use at most ${field.maxLength} characters.`;
      return formatProblem(field.format ?? 'plain', value);
    }
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'Enter a number.';
      if (field.type === 'integer' && !Number.isInteger(value)) return 'Enter a whole number.';
      if (field.minimum !== undefined && value < field.minimum) return `Enter ${field.minimum} or more.`;
      if (field.maximum !== undefined && value > field.maximum) return `Enter ${field.maximum} or less.`;
      return null;
    }
    case 'boolean':
      return typeof value === 'boolean' ? null : 'Choose yes or no.';
    case 'single_select':
      if (typeof value !== 'string') return 'Choose one option.';
      return field.options.some((option) => option.value === value) ? null : `"${value}" is not one of the options.`;
    case 'multi_select': {
      if (!Array.isArray(value)) return 'Choose options from the list.';
      const allowed = new Set(field.options.map((option) => option.value));
      const unknown = value.filter((item) => !allowed.has(item));
      if (unknown.length > 0) return `Not an option: ${unknown.join(', ')}.`;
      if (new Set(value).size !== value.length) return 'An option was chosen twice.';
      if (field.minItems !== undefined && value.length < field.minItems) return `Choose at least ${field.minItems}.`;
      if (field.maxItems !== undefined && value.length > field.maxItems) return `Choose at most ${field.maxItems}.`;
      return null;
    }
  }
}

function formatProblem(
  format: NonNullable<Extract<FormField, { type: 'string' }>['format']>,
  value: string,
): string | null {
  switch (format) {
    case 'email':
      return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) ? null : 'Enter an email address like name@example.com.';
    case 'uri':
      try {
        new URL(value);
        return null;
      } catch {
        return 'Enter a full address like https://example.com.';
      }
    case 'date':
      return isDate(value) ? null : 'Enter a date as YYYY-MM-DD.';
    case 'date-time':
      return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value) && !Number.isNaN(Date.parse(value))
        ? null
        : 'Enter a date and time like 2026-12-01T09:30.';
    default:
      return null;
  }
}

function isDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (match === null) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return (
    date.getUTCFullYear() === Number(match[1]) &&
    date.getUTCMonth() === Number(match[2]) - 1 &&
    date.getUTCDate() === Number(match[3])
  );
}

/** The answer with every secret question's (or secret form field's) answer replaced by a mask: what the transcript and clients see. */
export function maskAnswer(request: InteractionRequest, answer: InteractionAnswer): InteractionAnswer {
  if (answer.action !== 'accept') return answer;
  if (request.kind === 'form' && 'values' in answer) {
    const secret = new Set(secretFieldIds(request.fields));
    if (secret.size === 0) return answer;
    const values: Record<string, FormValue> = {};
    for (const [id, value] of Object.entries(answer.values))
      values[id] = secret.has(id) && value !== '' ? SECRET_MASK : value;
    return { action: 'accept', values };
  }
  if (request.kind !== 'question' || !('answers' in answer)) return answer;
  const secret = new Set(request.questions.filter((question) => question.secret).map((question) => question.id));
  if (secret.size === 0) return answer;
  const answers: Record<string, QuestionAnswer> = {};
  for (const [id, value] of Object.entries(answer.answers)) {
    answers[id] = secret.has(id) ? { optionIds: [], text: SECRET_MASK } : value;
  }
  return { action: 'accept', answers };
}

/** Whether the request carries a secret question or a secret form field. */
export function hasSecret(request: InteractionRequest): boolean {
  if (request.kind === 'form') return secretFieldIds(request.fields).length > 0;
  return request.kind === 'question' && request.questions.some((question) => question.secret);
}

function secretFieldIds(fields: readonly FormField[]): string[] {
  return fields.filter((field) => field.type === 'string' && field.secret === true).map((field) => field.id);
}
