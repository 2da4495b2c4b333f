import type { AttachmentRef } from '../../../src-shared/attachment-model';
import type { ChangeEventBody } from '../../../src-shared/events';
import { fail, ok, type Outcome } from '../../../src-shared/errors';
import type { InteractionCloseReason } from '../../../src-shared/interaction-model';
import type { MessageAuthor } from '../../../src-shared/message-author';
import type {
  QueuedMessage,
  RunStatus,
  SessionRecord,
  TurnDetail,
  TurnOrigin,
  TurnSummary,
} from '../../../src-shared/model';
import { isActiveStatus } from '../../../src-shared/model';
import { resumeNoticeText } from '../../../src-shared/run-reasons';
import type { MessageSubmitResult, TurnStartResult, TurnStopResult } from '../../../src-shared/operations';
import type { Stores } from '../../storage/stores';
import type { EventBus } from '../ports/event-bus';
import type { Clock, Ids } from '../ports/ports';
import type { AdmissionGate } from '../lifecycle/admission-gate';
import type { AttachmentService } from '../attachments/attachment-service';
import { firingAuthor } from './firing-author';
import type { InteractionService } from '../interactions/interaction-service';
import type { RunExecutor } from './run-executor';
import { admitTurn, type Admitted, type StartTurnRequest } from './admit-turn';
import { endRun, openNextRun, turnAndSessionEvents } from './run-lifecycle';

export type { PreloadedToolCall, StartTurnRequest } from './admit-turn';

export interface TurnServiceDeps {
  readonly stores: Stores;
  readonly bus: EventBus;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly executor: RunExecutor;
  readonly interactions: InteractionService;
  readonly admission: AdmissionGate;
  /** Checks a message's files against the session's model as it is now. */
  readonly attachments: Pick<AttachmentService, 'forMessage'>;
}

/** A turn to start, with the ids of files the client stored for its message (checked here). */
export type TurnStartRequest = Omit<StartTurnRequest, 'attachments'> & { readonly attachmentIds?: readonly string[] };

const RESUMABLE: readonly RunStatus[] = ['interrupted', 'cancelled', 'failed'];

/** Admits, stops and resumes turns, and keeps each session's queue of follow-up messages moving. */
export class TurnService {
  constructor(private readonly deps: TurnServiceDeps) {}

  start({
    attachmentIds,
    ...request
  }: TurnStartRequest): Outcome<
    TurnStartResult,
    | 'host_draining'
    | 'invalid_input'
    | 'not_found'
    | 'operation_conflict'
    | 'session_archived'
    | 'session_busy'
    | 'storage_damaged'
  > {
    const { stores } = this.deps;
    const session = stores.sessions.get(request.sessionId);
    if (session === null) return missingSession();
    const files = this.files(request.sessionId, attachmentIds);
    if (!files.ok) return files;
    const existing = stores.turns.getTurn(request.sessionId, request.turnId);
    if (existing !== null) {
      if (existing.text !== request.text) {
        return fail('operation_conflict', 'A different message was already sent with this turn id.');
      }
      return ok({ turn: existing, created: false });
    }
    if (session.archived) return archived();
    const refused = this.deps.admission.refusal();
    if (refused !== null) return refused;
    this.supersedeWaiting(request.sessionId);
    if (stores.turns.activeTurn(request.sessionId) !== null) {
      return fail(
        'session_busy',
        'This session is already working on a turn. Stop it, or send your message as a follow-up.',
      );
    }
    const admitted = stores.transaction(() => this.admit(session, { ...request, ...files.result }));
    return ok({ turn: this.launch(admitted), created: true });
  }

  /** A message's files, checked now against the session's model as it is, to travel with the message. */
  private files(
    sessionId: string,
    attachmentIds: readonly string[] | undefined,
  ): Outcome<{ attachments?: AttachmentRef[] }, 'invalid_input' | 'not_found'> {
    if (attachmentIds === undefined || attachmentIds.length === 0) return ok({});
    const checked = this.deps.attachments.forMessage(sessionId, attachmentIds);
    return checked.ok ? ok({ attachments: checked.result }) : checked;
  }

  /** `from`: the paired device pressing Stop (its name), recorded with the run's end; null for the desktop. */
  stop(
    sessionId: string,
    turnId: string | undefined,
    source: string,
    from: string | null = null,
  ): Outcome<TurnStopResult, 'not_found'> {
    const { stores, executor, clock, bus } = this.deps;
    if (stores.sessions.get(sessionId) === null) return missingSession();
    if (turnId !== undefined && stores.turns.getTurn(sessionId, turnId) === null) {
      return fail('not_found', 'That turn does not exist in this session.');
    }
    const active = stores.turns.activeTurn(sessionId);
    if (active === null || (turnId !== undefined && active.turnId !== turnId)) {
      const turn = turnId === undefined ? null : stores.turns.getTurn(sessionId, turnId);
      return ok({
        outcome: turnId === undefined ? 'nothing_running' : 'already_terminal',
        turn,
        cancelledMessages: [],
      });
    }
    let cancelledMessages: QueuedMessage[] = [];
    const cancelQueue = (): ChangeEventBody[] => {
      cancelledMessages = this.cancelQueued(sessionId);
      return cancelledMessages.map((message) => ({ kind: 'queue.changed', message }));
    };
    const ending = {
      status: 'cancelled' as const,
      terminalReason: source,
      ...(from === null ? {} : { stoppedFrom: from }),
    };
    if (!executor.end(sessionId, ending, cancelQueue)) {
      // No live handle (a waiting run holds nothing in memory): settle it in the record alone.
      const events = stores.transaction(() => {
        const now = clock.now();
        const closed = this.deps.interactions.closeForRun(active.latestRun.runId, closeReasonFor(source), now);
        const ended =
          endRun(stores, { sessionId, turnId: active.turnId, runId: active.latestRun.runId }, ending, now) ?? [];
        return [
          ...(closed === null ? [] : [closed]),
          ...ended,
          ...turnAndSessionEvents(stores, sessionId, active.turnId),
          ...cancelQueue(),
        ];
      });
      for (const event of events) bus.publish(event);
    }
    return ok({ outcome: 'stopped', turn: stores.turns.getTurn(sessionId, active.turnId), cancelledMessages });
  }

  query(sessionId: string, turnId: string): Outcome<{ turn: TurnDetail }, 'not_found'> {
    const { stores } = this.deps;
    if (stores.sessions.get(sessionId) === null) return missingSession();
    const turn = stores.turns.getTurnDetail(sessionId, turnId);
    return turn === null ? fail('not_found', 'That turn does not exist in this session.') : ok({ turn });
  }

  /** Submitted follow-ups of a session (the newest 200, or the ones named); null when the session is gone. */
  messages(sessionId: string, messageIds?: readonly string[]): QueuedMessage[] | null {
    const { stores } = this.deps;
    if (stores.sessions.get(sessionId) === null) return null;
    return stores.queue.list(sessionId, messageIds);
  }

  resume(
    sessionId: string,
    turnId: string,
  ): Outcome<
    { turn: TurnSummary },
    'host_draining' | 'not_found' | 'operation_conflict' | 'session_archived' | 'session_busy' | 'storage_damaged'
  > {
    const { stores, clock, ids, bus, executor } = this.deps;
    const session = stores.sessions.get(sessionId);
    if (session === null) return missingSession();
    const turn = stores.turns.getTurn(sessionId, turnId);
    if (turn === null) return fail('not_found', 'That turn does not exist in this session.');
    if (session.archived) return archived();
    if (isActiveStatus(turn.status)) return fail('session_busy', 'This turn is still running.');
    if (!RESUMABLE.includes(turn.status)) {
      return fail(
        'operation_conflict',
        'Only an interrupted, stopped or failed turn can be resumed; this one completed.',
      );
    }
    if (stores.turns.activeTurn(sessionId) !== null) {
      return fail('session_busy', 'Another turn is running in this session. Stop it first.');
    }
    const refused = this.deps.admission.refusal();
    if (refused !== null) return refused;
    const previous = turn.latestRun;
    const runId = ids.next('run');
    const events = stores.transaction(() => {
      const now = clock.now();
      openNextRun(
        stores,
        { sessionId, turnId, runId, kind: 'resume' },
        { resumeOf: previous.runId, previousStatus: previous.status },
        now,
      );
      const marker = stores.transcript.append(
        {
          sessionId,
          itemId: ids.next('item'),
          turnId,
          runId,
          kind: 'notice',
          text: resumeNoticeText(previous.terminalReason),
          state: 'final',
          data: {
            resumed: {
              previousRunId: previous.runId,
              previousStatus: previous.status,
              reason: previous.terminalReason,
            },
          },
          now,
        },
        stores.sessions.reservePositions(sessionId, 1),
      );
      stores.sessions.touch(sessionId, now);
      return [
        { kind: 'transcript.appended' as const, item: marker },
        ...turnAndSessionEvents(stores, sessionId, turnId),
      ];
    });
    for (const event of events) bus.publish(event);
    executor.launch(
      { sessionId, turnId, runId, kind: 'resume' },
      { previousRunId: previous.runId, previousStatus: previous.status, reason: previous.terminalReason },
    );
    const resumed = stores.turns.getTurn(sessionId, turnId);
    if (resumed === null) throw new Error('Resumed turn vanished');
    return ok({ turn: resumed });
  }

  /** With `keepWaiting` (a scheduled firing) a pending question is left alone and the message queues behind it. */
  submitMessage(
    sessionId: string,
    messageId: string,
    text: string,
    options: { keepWaiting?: boolean; attachmentIds?: readonly string[] } = {},
  ): Outcome<
    MessageSubmitResult,
    | 'host_draining'
    | 'invalid_input'
    | 'not_found'
    | 'operation_conflict'
    | 'session_archived'
    | 'session_busy'
    | 'storage_damaged'
  > {
    const { stores, clock, bus } = this.deps;
    const session = stores.sessions.get(sessionId);
    if (session === null) return missingSession();
    const files = this.files(sessionId, options.attachmentIds);
    if (!files.ok) return files;
    const attachments = files.result.attachments;
    const existing = stores.queue.get(sessionId, messageId);
    if (existing !== null) {
      const sameFiles =
        (existing.attachments ?? []).map((file) => file.attachmentId).join('\n') ===
        (attachments ?? []).map((file) => file.attachmentId).join('\n');
      if (existing.text !== text || !sameFiles)
        return fail('operation_conflict', 'A different message was already sent with this id.');
      return ok({ message: existing, disposition: existing.state === 'queued' ? 'queued' : 'started' });
    }
    if (session.archived) return archived();
    if (stores.turns.getTurn(sessionId, messageId) !== null) {
      return fail('operation_conflict', 'A turn with this id already exists; use a new message id.');
    }
    const refused = this.deps.admission.refusal();
    if (refused !== null) return refused;
    if (options.keepWaiting !== true) this.supersedeWaiting(sessionId);
    const busy = stores.turns.activeTurn(sessionId) !== null;
    const { message, admitted } = stores.transaction(() => {
      const queued = stores.queue.insert({
        sessionId,
        messageId,
        text,
        now: clock.now(),
        ...(attachments === undefined ? {} : { attachments }),
      });
      // A message that starts at once is the person's own turn; a firing keeps the queue's origin (its author names the task).
      if (busy) return { message: queued, admitted: null };
      return this.startQueued(session, queued, options.keepWaiting === true ? 'queued_message' : 'user');
    });
    bus.publish({ kind: 'queue.changed', message });
    if (admitted !== null) this.launch(admitted);
    return ok({ message, disposition: busy ? 'queued' : 'started' });
  }

  /** Rewrites a follow-up still waiting in the queue; one that started (or was removed) is refused, unchanged. */
  editMessage(
    sessionId: string,
    messageId: string,
    text: string,
  ): Outcome<{ message: QueuedMessage }, 'not_found' | 'operation_conflict'> {
    return this.changeQueued(sessionId, messageId, 'edited', (now) =>
      this.deps.stores.queue.setText(sessionId, messageId, text, now),
    );
  }

  /** Takes a follow-up out of the queue before it starts; one that started is refused, unchanged. */
  removeMessage(
    sessionId: string,
    messageId: string,
  ): Outcome<{ message: QueuedMessage }, 'not_found' | 'operation_conflict'> {
    return this.changeQueued(sessionId, messageId, 'removed', (now) =>
      this.deps.stores.queue.setState(sessionId, messageId, 'cancelled', null, now),
    );
  }

  private changeQueued(
    sessionId: string,
    messageId: string,
    verb: string,
    change: (now: number) => QueuedMessage,
  ): Outcome<{ message: QueuedMessage }, 'not_found' | 'operation_conflict'> {
    const { stores, clock, bus } = this.deps;
    if (stores.sessions.get(sessionId) === null) return missingSession();
    // One transaction: the queue cannot start the message between the check and the change.
    const outcome = stores.transaction((): Outcome<{ message: QueuedMessage }, 'not_found' | 'operation_conflict'> => {
      const current = stores.queue.get(sessionId, messageId);
      if (current === null) return fail('not_found', 'That follow-up does not exist in this session.');
      if (current.state === 'started')
        return fail('operation_conflict', `That follow-up has already started, so it can no longer be ${verb}.`);
      if (current.state === 'cancelled')
        return fail(
          'operation_conflict',
          `That follow-up was already taken out of the queue, so it can no longer be ${verb}.`,
        );
      return ok({ message: change(clock.now()) });
    });
    if (outcome.ok) bus.publish({ kind: 'queue.changed', message: outcome.result.message });
    return outcome;
  }

  /** Starts the oldest queued follow-up when the session is free and its last turn did not stop short. */
  drainQueue(sessionId: string): void {
    const { stores, bus } = this.deps;
    if (!this.deps.admission.isOpen) return;
    const session = stores.sessions.get(sessionId);
    if (session === null || session.archived) return;
    if (!['idle', 'completed', 'failed'].includes(session.activity)) return;
    const next = stores.queue.nextQueued(sessionId);
    if (next === null) return;
    const { message, admitted } = stores.transaction(() => this.startQueued(session, next));
    bus.publish({ kind: 'queue.changed', message });
    this.launch(admitted);
  }

  /**
   * A new message while the agent waits for an answer moves on: the pending question is closed as
   * `superseded` and its turn cancelled, so the new message starts now.
   */
  private supersedeWaiting(sessionId: string): void {
    if (this.deps.stores.turns.activeTurn(sessionId)?.status === 'waiting') this.stop(sessionId, undefined, SUPERSEDED);
  }

  /** Cancels every queued follow-up of a session; call inside a transaction. */
  cancelQueued(sessionId: string): QueuedMessage[] {
    const { stores, clock } = this.deps;
    const now = clock.now();
    return stores.queue
      .queued(sessionId)
      .map((message) => stores.queue.setState(sessionId, message.messageId, 'cancelled', null, now));
  }

  private startQueued(
    session: SessionRecord,
    queued: QueuedMessage,
    origin: TurnOrigin = 'queued_message',
  ): { message: QueuedMessage; admitted: Admitted } {
    const admitted = this.admit(session, {
      sessionId: session.sessionId,
      turnId: queued.messageId,
      text: queued.text,
      origin,
      ...(queued.attachments === undefined ? {} : { attachments: queued.attachments }),
      ...authorField(firingAuthor(this.deps.stores.automations, session.sessionId, queued.messageId)),
    });
    const { stores, clock } = this.deps;
    const message = stores.queue.setState(
      session.sessionId,
      queued.messageId,
      'started',
      queued.messageId,
      clock.now(),
    );
    return { message, admitted };
  }
  /** Writes a new turn with its first run and user message; call inside a transaction, then `launch`. */
  private admit(session: SessionRecord, request: StartTurnRequest): Admitted {
    return admitTurn(this.deps, session, request);
  }

  /** After the admitting transaction committed: publish what it wrote and start the run. */
  private launch(admitted: Admitted): TurnSummary {
    const { stores, bus, executor } = this.deps;
    for (const event of admitted.events) bus.publish(event);
    executor.launch(
      { sessionId: admitted.sessionId, turnId: admitted.turnId, runId: admitted.runId, kind: 'initial' },
      null,
    );
    const turn = stores.turns.getTurn(admitted.sessionId, admitted.turnId);
    if (turn === null) throw new Error('Admitted turn vanished');
    return turn;
  }
}

const SUPERSEDED = 'superseded';

function authorField(author: MessageAuthor | null): { author?: MessageAuthor } {
  return author === null ? {} : { author };
}

function closeReasonFor(source: string): InteractionCloseReason {
  if (source === 'session_archived') return 'session_archived';
  if (source === SUPERSEDED) return 'superseded';
  return 'turn_stopped';
}

function missingSession() {
  return fail('not_found', 'That session does not exist. It may have been deleted.');
}

function archived() {
  return fail('session_archived', 'This session is archived. Unarchive it to continue working in it.');
}
