import type { FormRequest, QuestionRequest } from '../../../../src-shared/interaction-model';
import { SECRET_MASK } from '../../../../src-shared/interaction-validation';

/** What the scripted agent asks for `/ask`, `/ask-secret` and `/form`, and how it sums up the answer. */

export const SCRIPTED_ASK: QuestionRequest = {
  kind: 'question',
  questions: [
    {
      id: 'target',
      header: 'Deploy target',
      prompt: 'Where should I deploy this change?',
      options: [
        { id: 'staging', label: 'Staging', description: 'Safe to try things' },
        { id: 'production', label: 'Production', description: 'Real users see it' },
      ],
      multiple: false,
      allowOther: false,
      secret: false,
    },
    {
      id: 'checks',
      header: 'Checks',
      prompt: 'Which checks should run first?',
      options: [
        { id: 'lint', label: 'Lint' },
        { id: 'unit', label: 'Unit tests' },
        { id: 'e2e', label: 'End-to-end tests' },
      ],
      multiple: true,
      allowOther: true,
      secret: false,
    },
    {
      id: 'notes',
      header: 'Notes',
      prompt: 'Anything I should keep in mind?',
      options: [],
      multiple: false,
      allowOther: true,
      secret: false,
    },
  ],
};

export const SCRIPTED_ASK_SECRET: QuestionRequest = {
  kind: 'question',
  questions: [
    {
      id: 'token',
      header: 'Deploy token',
      prompt: 'Paste the deploy token I should use.',
      options: [],
      multiple: false,
      allowOther: true,
      secret: true,
    },
    {
      id: 'region',
      header: 'Region',
      prompt: 'Which region?',
      options: [
        { id: 'eu', label: 'Europe' },
        { id: 'us', label: 'United States' },
      ],
      multiple: false,
      allowOther: false,
      secret: false,
    },
  ],
};

export const SCRIPTED_FORM: FormRequest = {
  kind: 'form',
  title: 'New project',
  description: 'Tell me about the project so I can set it up.',
  fields: [
    { id: 'name', label: 'Project name', required: true, type: 'string', format: 'plain', minLength: 2, maxLength: 60 },
    { id: 'description', label: 'Description', required: false, type: 'string', format: 'multiline', maxLength: 2000 },
    { id: 'owner', label: 'Owner email', required: true, type: 'string', format: 'email' },
    { id: 'repository', label: 'Repository URL', required: false, type: 'string', format: 'uri' },
    { id: 'start', label: 'Start date', required: false, type: 'string', format: 'date' },
    { id: 'kickoff', label: 'Kick-off meeting', required: false, type: 'string', format: 'date-time' },
    { id: 'budget', label: 'Budget (USD)', required: false, type: 'number', minimum: 0, maximum: 1_000_000 },
    { id: 'team', label: 'Team size', required: true, type: 'integer', minimum: 1, maximum: 50, default: 3 },
    { id: 'public', label: 'Public repository', required: false, type: 'boolean', default: false },
    {
      id: 'priority',
      label: 'Priority',
      required: true,
      type: 'single_select',
      options: [
        { value: 'low', label: 'Low' },
        { value: 'normal', label: 'Normal' },
        { value: 'high', label: 'High' },
      ],
      default: 'normal',
    },
    {
      id: 'platforms',
      label: 'Platforms',
      required: false,
      type: 'multi_select',
      options: [
        { value: 'web', label: 'Web' },
        { value: 'desktop', label: 'Desktop' },
        { value: 'mobile', label: 'Mobile' },
      ],
      maxItems: 3,
    },
  ],
};

/** The scripted agent's reply to the answer it was given as a tool result (secret values masked). */
export function summariseAnswer(output: unknown): string {
  if (typeof output !== 'object' || output === null || !('action' in output))
    return 'I did not get an answer I understand.';
  if (output.action === 'deny') {
    const reason = 'reason' in output && typeof output.reason === 'string' ? ` You said: "${output.reason}".` : '';
    return `You did not allow that, so I did not run it.${reason}`;
  }
  if (output.action === 'decline') return 'You declined to answer, so I will carry on without it.';
  if (output.action === 'cancel') return 'You dismissed the question, so I will carry on without it.';
  const lines: string[] = [];
  if ('answers' in output && Array.isArray(output.answers)) {
    for (const answer of output.answers as Array<{
      header: string;
      selected: string[];
      text?: string;
      secret?: boolean;
    }>) {
      const parts = [...answer.selected, ...(answer.text === undefined ? [] : [`"${answer.text}"`])];
      lines.push(`- **${answer.header}**: ${answer.secret === true ? SECRET_MASK : parts.join(', ') || '(nothing)'}`);
    }
  }
  if ('values' in output && typeof output.values === 'object' && output.values !== null) {
    for (const [key, value] of Object.entries(output.values)) {
      lines.push(`- **${key}**: ${Array.isArray(value) ? value.join(', ') : String(value)}`);
    }
  }
  return `Thanks — here is what I received:\n\n${lines.join('\n')}`;
}
