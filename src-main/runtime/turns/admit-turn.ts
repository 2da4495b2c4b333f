import type { AttachmentRef } from '../../../src-shared/attachment-model';
import type { ChangeEventBody } from '../../../src-shared/events';
import type { MessageAuthor } from '../../../src-shared/message-author';
import type { SessionRecord, TurnOrigin } from '../../../src-shared/model';
import { DEFAULT_MAX_STEPS } from '../../../src-shared/operations';
import type { Stores } from '../../storage/stores';
import type { Clock, Ids } from '../ports/ports';
import { openTurn, turnAndSessionEvents } from './run-lifecycle';
import { titleFromMessage } from '../sessions/session-title';

export interface StartTurnRequest {
  readonly sessionId: string;
  readonly turnId: string;
  readonly text: string;
  readonly maxSteps?: number;
  readonly origin?: TurnOrigin;
  readonly goalId?: string;
  /** What an untitled session should be called after this turn (a goal turn: its objective). */
  readonly titleHint?: string;
  /** A tool call already made for this turn (a skill the person chose), recorded after the message, before the agent starts. */
  readonly preloaded?: PreloadedToolCall;
  /** Files attached to the message (checked by the attachment service), kept on its transcript item. */
  readonly attachments?: readonly AttachmentRef[];
  /** Who wrote the message when the person did not (a scheduled task), kept on its transcript item. */
  readonly author?: MessageAuthor;
}

export interface PreloadedToolCall {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: unknown;
  readonly output: unknown;
}

/** A turn written by `admitTurn`, whose events are published (and run launched) once its transaction committed. */
export interface Admitted {
  readonly sessionId: string;
  readonly turnId: string;
  readonly runId: string;
  readonly events: readonly ChangeEventBody[];
}

type AdmitDeps = { readonly stores: Stores; readonly clock: Clock; readonly ids: Ids };

/** Writes a new turn with its first run and user message; call inside a transaction, then `launch`. */
export function admitTurn(deps: AdmitDeps, session: SessionRecord, request: StartTurnRequest): Admitted {
  const { stores, clock, ids } = deps;
  const { sessionId, turnId, text } = request;
  const runId = ids.next('run');
  const itemId = ids.next('item');
  const now = clock.now();
  const origin = request.origin ?? 'user';
  const goalId = request.goalId ?? null;
  const maxSteps = request.maxSteps ?? DEFAULT_MAX_STEPS;
  openTurn(stores, { sessionId, turnId, origin, text, maxSteps, runId, goalId }, { origin, goalId }, now);
  stores.ledger.append(runId, [{ kind: 'user_message', payload: { itemId, text } }], now);
  const position = stores.sessions.reservePositions(sessionId, 1);
  const item = stores.transcript.append(
    {
      sessionId,
      itemId,
      turnId,
      runId,
      kind: 'user_message',
      text,
      state: 'final',
      now,
      ...messageData(request.attachments, request.author),
    },
    position,
  );
  const events: ChangeEventBody[] = [{ kind: 'transcript.appended', item }];
  if (request.preloaded !== undefined)
    events.push(...recordPreloaded(deps, sessionId, turnId, runId, request.preloaded, now));
  if (session.titleSource === 'default') {
    const title = titleFromMessage(request.titleHint ?? text);
    if (title !== null) stores.sessions.setTitle(sessionId, title, 'auto', now);
  }
  stores.sessions.touch(sessionId, now);
  events.push(...turnAndSessionEvents(stores, sessionId, turnId));
  return { sessionId, turnId, runId, events };
}

/** The preloaded call and its result, as the run recorder writes any tool call (transcript items and ledger events). */
function recordPreloaded(
  deps: AdmitDeps,
  sessionId: string,
  turnId: string,
  runId: string,
  call: PreloadedToolCall,
  now: number,
): ChangeEventBody[] {
  const { stores, ids } = deps;
  const { toolCallId, toolName } = call;
  const records = [
    { kind: 'tool_call' as const, data: { toolCallId, toolName, input: call.input } },
    { kind: 'tool_result' as const, data: { toolCallId, toolName, output: call.output, isError: false } },
  ];
  return records.map(({ kind, data }) => {
    const item = stores.transcript.append(
      { sessionId, itemId: ids.next('item'), turnId, runId, kind, text: toolName, state: 'final', data, now },
      stores.sessions.reservePositions(sessionId, 1),
    );
    stores.ledger.append(runId, [{ kind, payload: { itemId: item.itemId, ...data } }], now);
    return { kind: 'transcript.appended', item };
  });
}

/** A user message's structured content: its attachments and who wrote it, when there are any. */
function messageData(
  attachments: readonly AttachmentRef[] | undefined,
  author: MessageAuthor | undefined,
): { data?: Record<string, unknown> } {
  const files = attachments === undefined || attachments.length === 0 ? {} : { attachments };
  const data = { ...files, ...(author === undefined ? {} : { author }) };
  return Object.keys(data).length === 0 ? {} : { data };
}
