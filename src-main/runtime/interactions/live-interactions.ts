import type { ChangeEventBody } from '../../../src-shared/events';
import { fail, ok, type Outcome } from '../../../src-shared/errors';
import type {
  InteractionAnswer,
  InteractionCloseReason,
  InteractionRecord,
  InteractionRequest,
} from '../../../src-shared/interaction-model';
import { hasSecret } from '../../../src-shared/interaction-validation';
import type { InteractionAnswerResult } from '../../../src-shared/operations';
import type { StoredInteraction } from '../../storage/interaction-store';
import type { SecretVault } from '../../storage/secret-vault';
import type { Stores } from '../../storage/stores';
import { settleAnswer } from './settle-answer';
import type { EventBus } from '../ports/event-bus';
import type { Clock, Ids, Logger } from '../ports/ports';
import type { RunIdentity } from '../turns/run-lifecycle';
import { turnAndSessionEvents } from '../turns/run-lifecycle';

export interface LiveInteractionsDeps {
  readonly stores: Stores;
  readonly vault: SecretVault;
  readonly bus: EventBus;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly logger: Logger;
}

/** Where a live question comes from: a tool call of a run that is running now. */
export interface LiveAsker extends RunIdentity {
  readonly toolCallId: string;
}

export interface LiveQuestion {
  readonly request: InteractionRequest;
  /** One line in the transcript where the question appears ("The MCP server "Notes" asks: …"). */
  readonly notice: string;
}

/** How a live question ended: the person's answer, or closed without one (the run ended, the asker gave up). */
export type LiveOutcome = { readonly answer: InteractionAnswer } | { readonly closed: InteractionCloseReason };

interface Waiter {
  readonly runId: string;
  readonly settle: (outcome: LiveOutcome) => void;
}

/**
 * Questions asked in the middle of a running tool call (an MCP server's elicitation): durable like
 * every interaction, but answered back into the live call instead of a continuation run. The run
 * stays `running` while it waits. When the run ends first (Stop, shutdown), or the asker gives up,
 * the question is closed; after a restart nothing is left to answer, so recovery closes it as
 * `expired`.
 */
export class LiveInteractions {
  private readonly waiters = new Map<string, Waiter>();

  constructor(private readonly deps: LiveInteractionsDeps) {}

  /** Records the question (transcript notice, ledger, Waiting for you) and resolves when it is answered or closed. */
  ask(asker: LiveAsker, question: LiveQuestion, signal: AbortSignal): Promise<LiveOutcome> {
    const { stores, clock, ids, bus } = this.deps;
    const { sessionId, turnId, runId, toolCallId } = asker;
    if (stores.turns.getRun(runId)?.status !== 'running') return Promise.resolve({ closed: 'turn_stopped' });
    const interactionId = ids.next('interaction');
    const events = stores.transaction(() => {
      const now = clock.now();
      const interaction = stores.interactions.insert({
        interactionId,
        sessionId,
        turnId,
        runId,
        toolCallId,
        request: question.request,
        now,
      });
      const data = { interactionId, toolCallId };
      const item = stores.transcript.append(
        {
          sessionId,
          itemId: ids.next('item'),
          turnId,
          runId,
          kind: 'notice',
          text: question.notice,
          state: 'final',
          data,
          now,
        },
        stores.sessions.reservePositions(sessionId, 1),
      );
      stores.ledger.append(
        runId,
        [{ kind: 'interaction_requested', payload: { interactionId, request: question.request, live: true } }],
        now,
      );
      stores.sessions.touch(sessionId, now);
      return [
        { kind: 'transcript.appended', item },
        { kind: 'interaction.changed', interaction: publicRecord(interaction) },
      ] satisfies ChangeEventBody[];
    });
    for (const event of events) bus.publish(event);
    return new Promise<LiveOutcome>((resolve) => {
      const settle = (outcome: LiveOutcome) => {
        signal.removeEventListener('abort', withdrawn);
        this.waiters.delete(interactionId);
        resolve(outcome);
      };
      const withdrawn = () => this.closeNow(interactionId, 'expired');
      this.waiters.set(interactionId, { runId, settle });
      if (signal.aborted) withdrawn();
      else signal.addEventListener('abort', withdrawn, { once: true });
    });
  }

  /** Whether the interaction is a live question still waiting in memory. */
  has(interactionId: string): boolean {
    return this.waiters.has(interactionId);
  }

  /**
   * Answers a live question (already checked against its request): recorded, then handed to the
   * waiting call. One that no longer has a live asker is closed as expired and refused.
   */
  answer(
    interaction: StoredInteraction,
    answer: InteractionAnswer,
  ): Outcome<InteractionAnswerResult, 'operation_conflict'> {
    const { stores, vault, clock, bus } = this.deps;
    const { interactionId, sessionId, turnId } = interaction;
    const waiter = this.waiters.get(interactionId);
    if (waiter === undefined) {
      this.closeNow(interactionId, 'expired');
      return fail(
        'operation_conflict',
        'This question can no longer be answered: the request behind it ended (the host restarted or the server gave up).',
      );
    }
    const secretId = answer.action === 'accept' && hasSecret(interaction.request) ? `answer-${interactionId}` : null;
    if (secretId !== null) vault.put(secretId, JSON.stringify(answer));
    const { events, settled } = stores.transaction(() => {
      const now = clock.now();
      const settledInteraction = settleAnswer(stores, interaction, answer, secretId, now);
      stores.sessions.touch(sessionId, now);
      const changes: ChangeEventBody[] = [
        { kind: 'interaction.changed', interaction: publicRecord(settledInteraction) },
        ...turnAndSessionEvents(stores, sessionId, turnId),
      ];
      return { events: changes, settled: settledInteraction };
    });
    for (const event of events) bus.publish(event);
    waiter.settle({ answer });
    const turn = stores.turns.getTurn(sessionId, turnId);
    if (turn === null) throw new Error('Answered turn vanished');
    return ok({ interaction: publicRecord(settled), turn });
  }

  /**
   * Closes the live questions of a run that just ended; call inside the transaction that ends it
   * (its terminal status and reason are already written). Returns the change events to publish.
   */
  closeForEndedRun(run: RunIdentity): ChangeEventBody[] {
    const events: ChangeEventBody[] = [];
    for (const [interactionId, waiter] of [...this.waiters]) {
      if (waiter.runId !== run.runId) continue;
      const latest = this.deps.stores.turns.getTurn(run.sessionId, run.turnId)?.latestRun;
      const reason = closeReasonOfRun(latest?.runId === run.runId ? latest : null);
      const closed = this.close(interactionId, reason);
      if (closed !== null) events.push(closed);
      waiter.settle({ closed: reason });
    }
    return events;
  }

  /**
   * Closes a question now, in its own transaction, and tells its waiter. Runs in abort listeners, so
   * it never throws: a record that cannot be written leaves the question pending, and the next start
   * closes it (its run is still `running` there).
   */
  private closeNow(interactionId: string, reason: InteractionCloseReason): void {
    try {
      const event = this.deps.stores.transaction(() => this.close(interactionId, reason));
      if (event !== null) this.deps.bus.publish(event);
    } catch (error) {
      this.deps.logger.warn('Could not record the close of a live question; the next start closes it', {
        interactionId,
        error: String(error),
      });
    }
    this.waiters.get(interactionId)?.settle({ closed: reason });
  }

  private close(interactionId: string, reason: InteractionCloseReason): ChangeEventBody | null {
    const { stores, clock } = this.deps;
    const stored = stores.interactions.get(interactionId);
    if (stored === null || stored.status !== 'pending') return null;
    const now = clock.now();
    const closed = stores.interactions.settle(interactionId, {
      status: 'closed',
      answer: null,
      answerSecretId: null,
      closeReason: reason,
      now,
    });
    stores.ledger.append(
      stored.runId,
      [{ kind: 'interaction_answered', payload: { interactionId, status: 'closed', closeReason: reason } }],
      now,
    );
    return { kind: 'interaction.changed', interaction: publicRecord(closed) };
  }
}

/** Why a live question closed, from how its run ended: stopped by the person, archived, or anything else (expired). */
function closeReasonOfRun(
  run: { readonly status: string; readonly terminalReason: string | null } | null,
): InteractionCloseReason {
  if (run?.status !== 'cancelled') return 'expired';
  if (run.terminalReason === 'session_archived') return 'session_archived';
  if (run.terminalReason === 'superseded') return 'superseded';
  return 'turn_stopped';
}

function publicRecord(stored: StoredInteraction): InteractionRecord {
  const { answerSecretId: _secret, ...record } = stored;
  return record;
}
