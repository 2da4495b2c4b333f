import { interactionRequestSchema, type InteractionRequest } from '../../../src-shared/interaction-model';
import { ASK_USER_TOOL_NAME, requestFromAskUserInput } from '../interactions/ask-user-tool';

/**
 * `ask_user` questions and answers as a reader of an export expects them: the questions with their
 * choices, then what the person answered, instead of the tool's raw input and output objects.
 */

export function isAskUser(toolName: unknown): boolean {
  return toolName === ASK_USER_TOOL_NAME;
}

/**
 * The questions of an ask_user call: its input as a model writes it, or the request itself (as the
 * Offline demo records it); null when it is neither (then the raw input is shown).
 */
export function askedMarkdown(input: unknown): string | null {
  const recorded = interactionRequestSchema.safeParse(input);
  const request = recorded.success ? recorded.data : requestFromAskUserInput(input);
  if ('error' in request) return null;
  return `**The agent asked:**\n\n${requestLines(request).join('\n')}`;
}

function requestLines(request: InteractionRequest): string[] {
  if (request.kind === 'question') {
    return request.questions.flatMap((question) => [
      `- **${question.header}:** ${question.prompt}${question.multiple ? ' (choose any)' : ''}`,
      ...question.options.map(
        (option) => `  - ${option.label}${option.description === undefined ? '' : ` — ${option.description}`}`,
      ),
    ]);
  }
  if (request.kind === 'form') {
    return [
      `- **${request.title}**${request.description === undefined ? '' : ` — ${request.description}`}`,
      ...request.fields.map((field) => `  - ${field.label}${field.required ? '' : ' (optional)'}`),
    ];
  }
  return [`- ${request.kind === 'network' ? `Allow network to ${request.host}` : request.summary}`];
}

/** The person's answer to an ask_user call; null when the output is not one Cairn recorded (then it is shown raw). */
export function answeredMarkdown(output: unknown): string | null {
  if (!isRecord(output)) return null;
  if (output.action === 'decline') return '**You declined to answer.**';
  if (output.action === 'cancel') return '**You dismissed the question without answering.**';
  if (output.action !== 'accept') return null;
  if (Array.isArray(output.answers)) {
    const lines = output.answers.filter(isRecord).map((answer) => {
      const parts = [
        ...(Array.isArray(answer.selected) ? answer.selected.filter((label) => typeof label === 'string') : []),
      ];
      if (typeof answer.text === 'string' && answer.text !== '')
        parts.push(answer.secret === true ? '(hidden)' : answer.text);
      const header =
        typeof answer.header === 'string'
          ? answer.header
          : typeof answer.question === 'string'
            ? answer.question
            : 'Answer';
      return `- **${header}:** ${parts.length === 0 ? '(no answer)' : parts.join(', ')}`;
    });
    return `**You answered:**\n\n${lines.join('\n')}`;
  }
  if (isRecord(output.values)) {
    const lines = Object.entries(output.values).map(([field, value]) => `- **${field}:** ${valueText(value)}`);
    return `**You answered:**\n\n${lines.join('\n')}`;
  }
  return '**You answered.**';
}

function valueText(value: unknown): string {
  if (Array.isArray(value)) return value.map(valueText).join(', ');
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value) ?? '';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
