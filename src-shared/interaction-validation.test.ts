import { describe, expect, it } from 'vitest';
import type { FormRequest, InteractionAnswer, QuestionRequest } from './interaction-model';
import { formRequestSchema, questionRequestSchema } from './interaction-model';
import { SECRET_MASK } from './interaction-validation';
import { hasSecret, maskAnswer, validateAnswer } from './interaction-validation';

const questions: QuestionRequest = questionRequestSchema.parse({
  kind: 'question',
  questions: [
    {
      id: 'target',
      header: 'Target',
      prompt: 'Where?',
      options: [
        { id: 'staging', label: 'Staging' },
        { id: 'prod', label: 'Production' },
      ],
      multiple: false,
      allowOther: false,
      secret: false,
    },
    {
      id: 'checks',
      header: 'Checks',
      prompt: 'Which?',
      options: [
        { id: 'lint', label: 'Lint' },
        { id: 'tests', label: 'Tests' },
        { id: 'e2e', label: 'E2E' },
      ],
      multiple: true,
      allowOther: true,
      secret: false,
    },
    {
      id: 'note',
      header: 'Note',
      prompt: 'Anything else?',
      options: [],
      multiple: false,
      allowOther: true,
      secret: false,
    },
    {
      id: 'token',
      header: 'Token',
      prompt: 'Deploy token?',
      options: [],
      multiple: false,
      allowOther: true,
      secret: true,
    },
  ],
});

const form: FormRequest = formRequestSchema.parse({
  kind: 'form',
  title: 'Release',
  fields: [
    { id: 'name', label: 'Name', required: true, type: 'string', minLength: 2, maxLength: 10 },
    { id: 'email', label: 'Email', required: false, type: 'string', format: 'email' },
    { id: 'site', label: 'Site', required: false, type: 'string', format: 'uri' },
    { id: 'day', label: 'Day', required: false, type: 'string', format: 'date' },
    { id: 'at', label: 'At', required: false, type: 'string', format: 'date-time' },
    { id: 'budget', label: 'Budget', required: false, type: 'number', minimum: 0, maximum: 100 },
    { id: 'count', label: 'Count', required: false, type: 'integer', minimum: 1 },
    { id: 'notify', label: 'Notify', required: false, type: 'boolean' },
    {
      id: 'env',
      label: 'Env',
      required: false,
      type: 'single_select',
      options: [
        { value: 'a', label: 'A' },
        { value: 'b', label: 'B' },
      ],
    },
    {
      id: 'tags',
      label: 'Tags',
      required: false,
      type: 'multi_select',
      options: [
        { value: 'x', label: 'X' },
        { value: 'y', label: 'Y' },
      ],
      maxItems: 1,
    },
  ],
});

const good: InteractionAnswer = {
  action: 'accept',
  answers: {
    target: { optionIds: ['prod'] },
    checks: { optionIds: ['lint', 'tests'], text: 'smoke' },
    note: { optionIds: [], text: 'none' },
    token: { optionIds: [], text: 's3cr3t' },
  },
};

describe('question answers', () => {
  it('accepts a complete, valid answer', () => {
    expect(validateAnswer(questions, good)).toEqual([]);
  });
  it.each([
    ['an unknown option', { target: { optionIds: ['moon'] } }, 'target', /Not an option: moon/],
    ['two answers to a single choice', { target: { optionIds: ['prod', 'staging'] } }, 'target', /only one/],
    ['own text where Other is not allowed', { target: { optionIds: [], text: 'mars' } }, 'target', /not your own text/],
    ['a missing answer', { target: undefined }, 'target', /Choose an answer/],
    ['an unknown question', { extra: { optionIds: [] } }, 'extra', /no question "extra"/],
  ])('refuses %s', (_name, change, id, message) => {
    const answers: Record<string, unknown> = { ...(good as { answers: Record<string, unknown> }).answers, ...change };
    for (const key of Object.keys(answers)) if (answers[key] === undefined) delete answers[key];
    const problems = validateAnswer(questions, { action: 'accept', answers } as InteractionAnswer);
    expect(problems).toEqual([expect.objectContaining({ id, message: expect.stringMatching(message) })]);
  });
  it('decline and cancel need nothing', () => {
    expect(validateAnswer(questions, { action: 'decline' })).toEqual([]);
    expect(validateAnswer(questions, { action: 'cancel' })).toEqual([]);
  });
  it('refuses form values for a question', () => {
    expect(validateAnswer(questions, { action: 'accept', values: {} })[0]?.message).toMatch(/not form values/);
  });
  it('masks secret answers', () => {
    const masked = maskAnswer(questions, good);
    expect(JSON.stringify(masked)).not.toContain('s3cr3t');
    expect(masked).toMatchObject({ answers: { token: { text: SECRET_MASK }, note: { text: 'none' } } });
  });
});

describe('form answers', () => {
  const valid = {
    name: 'Ada',
    email: 'ada@example.com',
    site: 'https://example.com',
    day: '2026-02-28',
    at: '2026-02-28T09:30',
    budget: 12.5,
    count: 3,
    notify: true,
    env: 'b',
    tags: ['x'],
  };
  it('accepts valid values of every kind', () => {
    expect(validateAnswer(form, { action: 'accept', values: valid })).toEqual([]);
  });
  it.each([
    ['name', undefined, /Name is required/],
    ['name', 'A', /at least 2/],
    ['name', 'Ada Lovelace!', /at most 10/],
    ['email', 'ada-at-example', /email address/],
    ['site', 'not a url', /full address/],
    ['day', '2026-02-30', /YYYY-MM-DD/],
    ['at', 'tomorrow', /date and time/],
    ['budget', 101, /100 or less/],
    ['budget', 'ten', /Enter a number/],
    ['count', 2.5, /whole number/],
    ['count', 0, /1 or more/],
    ['notify', 'yes', /yes or no/],
    ['env', 'c', /not one of the options/],
    ['tags', ['x', 'y'], /at most 1/],
    ['tags', ['z'], /Not an option: z/],
    ['unknown', 'x', /no field "unknown"/],
  ])('refuses %s = %j', (id, value, message) => {
    const values: Record<string, unknown> = { ...valid, [id]: value };
    if (value === undefined) delete values[id];
    const problems = validateAnswer(form, { action: 'accept', values } as InteractionAnswer);
    expect(problems).toEqual([expect.objectContaining({ id, message: expect.stringMatching(message) })]);
  });
});

describe('secret form fields', () => {
  const withSecret = formRequestSchema.parse({
    kind: 'form',
    title: 'Sign in',
    fields: [
      { id: 'user', label: 'User', required: true, type: 'string' },
      { id: 'pin', label: 'PIN', required: false, type: 'string', secret: true },
    ],
  });
  it('are masked in the recorded answer (an empty one stays empty)', () => {
    expect(hasSecret(withSecret)).toBe(true);
    expect(hasSecret(form)).toBe(false);
    expect(maskAnswer(withSecret, { action: 'accept', values: { user: 'ada', pin: '4321' } })).toEqual({
      action: 'accept',
      values: { user: 'ada', pin: SECRET_MASK },
    });
    expect(maskAnswer(withSecret, { action: 'accept', values: { user: 'ada', pin: '' } })).toEqual({
      action: 'accept',
      values: { user: 'ada', pin: '' },
    });
  });
});

describe('request schemas', () => {
  it('refuse a question with one option, duplicate ids, or more than four questions', () => {
    const base = { id: 'q', header: 'H', prompt: 'P', multiple: false, allowOther: false, secret: false };
    expect(
      questionRequestSchema.safeParse({
        kind: 'question',
        questions: [{ ...base, options: [{ id: 'a', label: 'A' }] }],
      }).success,
    ).toBe(false);
    expect(questionRequestSchema.safeParse({ kind: 'question', questions: [{ ...base, options: [] }] }).success).toBe(
      false,
    );
    expect(
      questionRequestSchema.safeParse({
        kind: 'question',
        questions: [
          { ...base, options: [], allowOther: true },
          { ...base, options: [], allowOther: true },
        ],
      }).success,
    ).toBe(false);
    expect(
      questionRequestSchema.safeParse({
        kind: 'question',
        questions: Array.from({ length: 5 }, (_, i) => ({ ...base, id: `q${i}`, options: [], allowOther: true })),
      }).success,
    ).toBe(false);
  });
  it('refuse a form of more than 32 fields', () => {
    const fields = Array.from({ length: 33 }, (_, i) => ({
      id: `f${i}`,
      label: 'F',
      required: false,
      type: 'boolean',
    }));
    expect(formRequestSchema.safeParse({ kind: 'form', title: 'T', fields }).success).toBe(false);
  });
});
