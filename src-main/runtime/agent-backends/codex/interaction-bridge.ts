import type { InteractionRequest, Question } from '../../../../src-shared/interaction-model';
import type { HistoryMessage } from '../../contract/agent-backend';
import {
  commandApprovalSchema,
  fileChangeApprovalSchema,
  METHODS,
  userInputRequestSchema,
  type UserInputRequest,
} from './codex-protocol';
import { bridgeOtherRequest, CODEX_PERMISSIONS_TOOL, OTHER_METHODS, otherResponse } from './codex-requests';
import { fileChangeSummary } from './file-change-view';
import { callOf, CODEX_PATCH_TOOL, CODEX_SHELL_TOOL, type EventMapper } from './event-mapper';

/** A Codex request for the person, as a Cairn interaction. */
export interface BridgedRequest {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: Record<string, unknown>;
  readonly request: InteractionRequest;
}

const ASK_TOOL = 'ask_user';

/**
 * Codex's approval and question requests become Cairn interactions: a command approval shows the
 * exact command, a file-change approval the diff, `requestUserInput` a question form, and the
 * permissions approval and MCP form elicitation as `bridgeOtherRequest` maps them. Null for a request
 * Cairn does not bridge (it is declined).
 */
export function bridgeRequest(
  method: string,
  params: unknown,
  mapper: EventMapper,
  requestId: number | string,
): BridgedRequest | null {
  switch (method) {
    case METHODS.commandApproval: {
      const parsed = commandApprovalSchema.safeParse(params);
      if (!parsed.success) return null;
      const item = mapper.itemOf(parsed.data.itemId);
      const command = parsed.data.command ?? (item?.type === 'commandExecution' ? item.command : '');
      const cwd = parsed.data.cwd ?? (item?.type === 'commandExecution' ? item.cwd : '');
      const input = { command, cwd, ...(parsed.data.reason == null ? {} : { reason: parsed.data.reason }) };
      return {
        toolCallId: parsed.data.itemId,
        toolName: CODEX_SHELL_TOOL,
        input,
        request: {
          kind: 'permission',
          toolName: CODEX_SHELL_TOOL,
          summary: `Run ${firstLine(command)}`.slice(0, 500),
          preview: { kind: 'command', command, cwd },
        },
      };
    }
    case METHODS.fileChangeApproval: {
      const parsed = fileChangeApprovalSchema.safeParse(params);
      if (!parsed.success) return null;
      const item = mapper.itemOf(parsed.data.itemId);
      const call =
        item?.type === 'fileChange' ? callOf(item) : { input: { path: '', diff: '', files: [] as string[] } };
      const path = String(call.input.path);
      const summary = item?.type === 'fileChange' ? fileChangeSummary(item) : `Edit ${path}`.slice(0, 500);
      return {
        toolCallId: parsed.data.itemId,
        toolName: CODEX_PATCH_TOOL,
        input: call.input,
        request: {
          kind: 'permission',
          toolName: CODEX_PATCH_TOOL,
          summary,
          preview: { kind: 'diff', path, diff: String(call.input.diff) },
        },
      };
    }
    case METHODS.userInput: {
      const parsed = userInputRequestSchema.safeParse(params);
      if (!parsed.success || parsed.data.questions.length === 0) return null;
      return {
        toolCallId: parsed.data.itemId,
        toolName: ASK_TOOL,
        input: { codexQuestions: parsed.data.questions },
        request: { kind: 'question', questions: parsed.data.questions.slice(0, 4).map(toQuestion) },
      };
    }
    default:
      return bridgeOtherRequest(method, params, requestId);
  }
}

function toQuestion(question: UserInputRequest['questions'][number], index: number): Question {
  const options = (question.options ?? []).slice(0, 6).map((option, at) => ({
    id: `option-${at + 1}`,
    label: option.label.slice(0, 200) || `Option ${at + 1}`,
    ...(option.description === '' ? {} : { description: option.description.slice(0, 500) }),
  }));
  const usable = options.length >= 2 ? options : [];
  return {
    id: questionId(question.id, index),
    header: (question.header.trim() || 'Question').slice(0, 40),
    prompt: (question.question.trim() || 'Codex asks').slice(0, 2000),
    options: usable,
    multiple: false,
    allowOther: question.isOther || usable.length === 0,
    secret: question.isSecret,
  };
}

function questionId(id: string, index: number): string {
  const clean = id.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 64);
  return clean === '' ? `q${index + 1}` : clean;
}

/** How the person answered, read from the continuation's history (the interaction's tool result). */
export interface PersonAnswer {
  readonly toolCallId: string;
  readonly output: Readonly<Record<string, unknown>>;
}

/** The answer this continuation run carries: the last tool result of its turn, if any. */
export function answerInHistory(history: readonly HistoryMessage[], turnId: string): PersonAnswer | null {
  const last = [...history].reverse().find((message) => message.turnId === turnId && message.role !== 'reasoning');
  if (last?.role !== 'tool_result' || last.data === null) return null;
  const output = last.data.output;
  if (typeof output !== 'object' || output === null || typeof last.data.toolCallId !== 'string') return null;
  return { toolCallId: last.data.toolCallId, output: output as Record<string, unknown> };
}

/** Codex's response to a pending request, from the person's answer (null answer: an approval the person allowed). */
export function codexResponse(
  method: string,
  requestParams: unknown,
  answer: PersonAnswer | null,
  forSession: boolean,
): unknown {
  if (method === OTHER_METHODS.permissionsApproval || method === OTHER_METHODS.elicitation)
    return otherResponse(method, requestParams, answer?.output ?? null, forSession);
  if (method === METHODS.userInput) {
    const parsed = userInputRequestSchema.safeParse(requestParams);
    const answers: Record<string, { answers: string[] }> = {};
    const given = Array.isArray(answer?.output.answers) ? (answer.output.answers as unknown[]) : [];
    parsed.data?.questions.forEach((question, index) => {
      const entry = given.find(
        (candidate) => isRecord(candidate) && candidate.questionId === questionId(question.id, index),
      );
      if (!isRecord(entry)) return;
      const selected = Array.isArray(entry.selected)
        ? entry.selected.filter((value): value is string => typeof value === 'string')
        : [];
      answers[question.id] = {
        answers: [...selected, ...(typeof entry.text === 'string' && entry.text !== '' ? [entry.text] : [])],
      };
    });
    return { answers };
  }
  if (answer === null) return { decision: forSession ? 'acceptForSession' : 'accept' };
  return { decision: answer.output.action === 'allow' ? 'accept' : 'decline' };
}

/**
 * What Codex is told beside a declined command or file change when the person gave a reason: Codex's
 * decline carries no message (the model sees only "rejected by user"), so it goes in as input of the turn.
 */
export function declineReason(method: string, answer: PersonAnswer | null): string | null {
  if (method !== METHODS.commandApproval && method !== METHODS.fileChangeApproval) return null;
  const reason = answer?.output.reason;
  if (answer === null || answer.output.action === 'allow' || typeof reason !== 'string' || reason.trim() === '')
    return null;
  const what = method === METHODS.commandApproval ? 'command' : 'file change';
  return `The person declined your ${what} and said why: ${reason.trim()}`;
}

/**
 * The next input for a thread whose live request was lost (the host restarted while it waited): the
 * answer in words, with the command or patch it concerned, so the work goes on from the answer.
 */
export function answerAsInput(
  call: { toolName: string; input: unknown } | null,
  answer: PersonAnswer | null,
  approved: boolean,
): string {
  const input = isRecord(call?.input) ? call.input : {};
  const intro = 'Cairn restarted while your request waited for the person, so that request is gone. Their answer:';
  if (call?.toolName === CODEX_SHELL_TOOL || call?.toolName === CODEX_PATCH_TOOL) {
    const what =
      call.toolName === CODEX_SHELL_TOOL
        ? `the command \`${String(input.command ?? '')}\``
        : `the file change to ${String(input.path ?? 'the files')}:\n${String(input.diff ?? '')}`;
    if (approved) return `${intro} they approved ${what}. It has not run yet: carry it out now and continue.`;
    const reason = typeof answer?.output.reason === 'string' ? ` Their reason: ${answer.output.reason}` : '';
    return `${intro} they declined ${what}.${reason} Do not do it; continue without it.`;
  }
  if (call?.toolName === CODEX_PERMISSIONS_TOOL) {
    const asked = JSON.stringify(input.permissions ?? {});
    return approved
      ? `${intro} they granted the permissions you asked for (${asked}), but this new turn does not hold them; ask again if you still need them, then continue.`
      : `${intro} they refused the permissions you asked for (${asked}). Continue without them.`;
  }
  return `${intro} ${JSON.stringify(answer?.output ?? {})}. Continue from this answer.`;
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
