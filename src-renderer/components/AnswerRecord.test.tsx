import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { FormRequest, QuestionRequest } from '../../src-shared/interaction-model';
import { SECRET_MASK } from '../../src-shared/interaction-validation';
import { interaction } from '../state/reducers/record-fixtures';
import { AnswerRecord } from './AnswerRecord';

const secret: QuestionRequest = {
  kind: 'question',
  questions: [
    {
      id: 'token',
      header: 'Deploy token',
      prompt: 'Token?',
      options: [],
      multiple: false,
      allowOther: true,
      secret: true,
    },
    {
      id: 'region',
      header: 'Region',
      prompt: 'Where?',
      options: [
        { id: 'eu', label: 'Europe' },
        { id: 'us', label: 'United States' },
      ],
      multiple: false,
      allowOther: true,
      secret: false,
    },
  ],
};

const form: FormRequest = {
  kind: 'form',
  title: 'Project',
  fields: [
    { id: 'public', label: 'Public', required: false, type: 'boolean' },
    {
      id: 'priority',
      label: 'Priority',
      required: true,
      type: 'single_select',
      options: [{ value: 'high', label: 'High' }],
    },
    { id: 'notes', label: 'Notes', required: false, type: 'string' },
  ],
};

describe('AnswerRecord', () => {
  it('shows question answers by their labels, with the masked secret as the host sent it', () => {
    const record = interaction({
      interactionId: 'i1',
      request: secret,
      status: 'answered',
      answer: {
        action: 'accept',
        answers: { token: { optionIds: [], text: SECRET_MASK }, region: { optionIds: ['eu'], text: 'and Asia' } },
      },
    });
    const html = renderToStaticMarkup(<AnswerRecord record={record} />);
    expect(html).toContain(`<dd class="is-secret">${SECRET_MASK}</dd>`);
    expect(html).toContain('<dd>Europe, Other: and Asia</dd>');
  });

  it('shows form values readably, and empty ones as a dash', () => {
    const record = interaction({
      interactionId: 'i2',
      request: form,
      status: 'answered',
      answer: { action: 'accept', values: { public: true, priority: 'high' } },
    });
    const html = renderToStaticMarkup(<AnswerRecord record={record} />);
    expect(html).toContain('<dt>Public</dt><dd>Yes</dd>');
    expect(html).toContain('<dt>Priority</dt><dd>High</dd>');
    expect(html).toContain('<dt>Notes</dt><dd>—</dd>');
  });

  it('says why an interaction closed or was not answered', () => {
    expect(
      renderToStaticMarkup(
        <AnswerRecord record={interaction({ interactionId: 'c', status: 'closed', closeReason: 'turn_stopped' })} />,
      ),
    ).toContain('the turn was stopped before you answered');
    expect(
      renderToStaticMarkup(
        <AnswerRecord
          record={interaction({ interactionId: 'd', status: 'declined', answer: { action: 'decline' } })}
        />,
      ),
    ).toContain('You skipped this.');
    expect(
      renderToStaticMarkup(
        <AnswerRecord
          record={interaction({ interactionId: 'f', request: form, status: 'cancelled', answer: { action: 'cancel' } })}
        />,
      ),
    ).toContain('You dismissed this without answering.');
    expect(
      renderToStaticMarkup(
        <AnswerRecord
          record={interaction({ interactionId: 'g', request: form, status: 'declined', answer: { action: 'decline' } })}
        />,
      ),
    ).toContain('You declined to fill this in.');
    // Set aside by the person's own new message, not by the agent asking again.
    const setAside = renderToStaticMarkup(
      <AnswerRecord record={interaction({ interactionId: 'e', status: 'closed', closeReason: 'superseded' })} />,
    );
    expect(setAside).toContain('Set aside — you sent a new message instead of answering.');
    expect(setAside).not.toContain('asked again');
  });

  it('says which paired device answered, and nothing more for the desktop or an older record', () => {
    const permission = {
      kind: 'permission' as const,
      toolName: 'run_shell',
      summary: 'Run ls',
      preview: { kind: 'command' as const, command: 'ls', cwd: '/work' },
    };
    const answered = (answeredFrom?: string) =>
      renderToStaticMarkup(
        <AnswerRecord
          record={interaction({
            interactionId: 'i1',
            request: permission,
            status: 'answered',
            answer: { action: 'accept', decision: 'allow_once' },
            ...(answeredFrom === undefined ? {} : { answeredFrom }),
          })}
        />,
      );
    expect(answered('Pixel 9')).toContain('Allowed once<span data-testid="answered-from"> from Pixel 9</span>');
    expect(answered()).not.toContain(' from ');
    const denied = renderToStaticMarkup(
      <AnswerRecord
        record={interaction({
          interactionId: 'i2',
          request: permission,
          status: 'declined',
          answer: { action: 'decline' },
          answeredFrom: 'Pixel 9',
        })}
      />,
    );
    expect(denied).toContain('You denied this.<span data-testid="answered-from"> from Pixel 9</span>');
  });
});
