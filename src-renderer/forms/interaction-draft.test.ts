import { describe, expect, it } from 'vitest';
import type { FormRequest, QuestionRequest } from '../../src-shared/interaction-model';
import {
  answerOf,
  draftProblems,
  fieldHint,
  formValues,
  initialFormDraft,
  initialQuestionDraft,
  problemsById,
  setOther,
  setText,
  toggleOption,
} from './interaction-draft';

const ask: QuestionRequest = {
  kind: 'question',
  questions: [
    {
      id: 'target',
      header: 'Deploy target',
      prompt: 'Where?',
      options: [
        { id: 'staging', label: 'Staging' },
        { id: 'production', label: 'Production' },
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
        { id: 'unit', label: 'Unit' },
      ],
      multiple: true,
      allowOther: true,
      secret: false,
    },
    {
      id: 'notes',
      header: 'Notes',
      prompt: 'Anything?',
      options: [],
      multiple: false,
      allowOther: true,
      secret: false,
    },
  ],
};
const [target, checks, notes] = ask.questions as [
  QuestionRequest['questions'][number],
  QuestionRequest['questions'][number],
  QuestionRequest['questions'][number],
];

const form: FormRequest = {
  kind: 'form',
  title: 'New project',
  fields: [
    { id: 'name', label: 'Project name', required: true, type: 'string', minLength: 2, maxLength: 60 },
    { id: 'description', label: 'Description', required: false, type: 'string', format: 'multiline' },
    { id: 'owner', label: 'Owner email', required: true, type: 'string', format: 'email' },
    { id: 'team', label: 'Team size', required: true, type: 'integer', minimum: 1, maximum: 50, default: 3 },
    { id: 'public', label: 'Public', required: false, type: 'boolean' },
    {
      id: 'priority',
      label: 'Priority',
      required: true,
      type: 'single_select',
      options: [
        { value: 'low', label: 'Low' },
        { value: 'high', label: 'High' },
      ],
    },
    {
      id: 'areas',
      label: 'Areas',
      required: false,
      type: 'multi_select',
      options: [{ value: 'ui', label: 'UI' }],
      minItems: 1,
    },
  ],
};

describe('question drafts', () => {
  it('keeps one option for a single-choice question and toggles options of a multiple one', () => {
    let draft = toggleOption(initialQuestionDraft(), target, 'staging');
    draft = toggleOption(draft, target, 'production');
    draft = toggleOption(draft, checks, 'lint');
    draft = toggleOption(draft, checks, 'unit');
    draft = toggleOption(draft, checks, 'lint');
    expect(answerOf(ask, draft)).toEqual({
      action: 'accept',
      answers: { target: { optionIds: ['production'] }, checks: { optionIds: ['unit'] }, notes: { optionIds: [] } },
    });
  });

  it('chooses Other when the person types their own answer, and sends the text only then', () => {
    let draft = setText(initialQuestionDraft(), checks, 'Smoke tests');
    draft = setText(draft, notes, '  careful  ');
    draft = toggleOption(draft, target, 'staging');
    expect(answerOf(ask, draft)).toEqual({
      action: 'accept',
      answers: {
        target: { optionIds: ['staging'] },
        checks: { optionIds: [], text: 'Smoke tests' },
        notes: { optionIds: [], text: 'careful' },
      },
    });
    const unticked = setOther(draft, checks, false);
    expect(draftProblems(ask, unticked).map((problem) => problem.id)).toEqual(['checks']);
  });

  it('says what is missing, next to the question', () => {
    const problems = draftProblems(ask, setOther(initialQuestionDraft(), checks, true));
    const byId = problemsById(problems);
    expect(byId.get('target')).toBe('Choose an answer.');
    expect(byId.get('checks')).toBe('Choose an answer or write your own.');
    // A free-text question has nothing to choose.
    expect(byId.get('notes')).toBe('Write an answer.');
  });
});

describe('form drafts', () => {
  it('starts from the defaults and sends parsed values, leaving empty fields out', () => {
    const draft = initialFormDraft(form);
    expect(draft.values).toMatchObject({ name: '', team: '3', public: false, priority: '', areas: [] });
    const filled = {
      ...draft,
      values: { ...draft.values, name: ' Atlas ', description: 'line one\n', owner: 'a@b.co', priority: 'high' },
    };
    expect(formValues(form, filled)).toEqual({
      name: 'Atlas',
      description: 'line one\n',
      owner: 'a@b.co',
      team: 3,
      public: false,
      priority: 'high',
    });
  });

  it('reports invalid values by field, text that is not a number included', () => {
    const draft = initialFormDraft(form);
    const bad = {
      ...draft,
      values: { ...draft.values, name: 'A', owner: 'not-an-email', team: 'lots', priority: 'low' },
    };
    const byId = problemsById(draftProblems(form, bad));
    expect(byId.get('name')).toBe('Use at least 2 characters.');
    expect(byId.get('owner')).toMatch(/email address/);
    expect(byId.get('team')).toBe('Enter a number.');
    const zero = { ...bad, values: { ...bad.values, team: '0' } };
    expect(problemsById(draftProblems(form, zero)).get('team')).toBe('Enter 1 or more.');
  });

  it('hints at limits under a field', () => {
    expect(fieldHint(form.fields[0]!)).toBe('2–60 characters');
    expect(fieldHint(form.fields[3]!)).toBe('A whole number from 1 to 50');
    expect(fieldHint(form.fields[6]!)).toBe('Choose at least 1');
    expect(fieldHint(form.fields[4]!)).toBeNull();
  });
});
