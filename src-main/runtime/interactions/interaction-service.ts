import type { ChangeEventBody } from '../../../src-shared/events';
import { fail, ok, type Outcome } from '../../../src-shared/errors';
import type {
  InteractionAnswer,
  InteractionCloseReason,
  InteractionRecord,
  InteractionStatus,
} from '../../../src-shared/interaction-model';
import { permissionDecisionOf } from '../../../src-shared/interaction-model';
import { hasSecret, validateAnswer } from '../../../src-shared/interaction-validation';
import type { InteractionAnswerResult } from '../../../src-shared/operations';
import type { StoredInteraction } from '../../storage/interaction-store';
import type { SecretVault } from '../../storage/secret-vault';
import type { Stores } from '../../storage/stores';
import { settleAnswer } from './settle-answer';
import type { EventBus } from '../ports/event-bus';
import type { Clock, Ids } from '../ports/ports';
import type { AdmissionGate } from '../lifecycle/admission-gate';
import type { RunExecutor } from '../turns/run-executor';
import { endRun, openNextRun, turnAndSessionEvents } from '../turns/run-lifecycle';
import { ASK_USER_TOOL_NAME } from './ask-user-tool';
import { fullAnswer } from './full-answer';
import { interactionOutput } from './interaction-output';
import type { LiveInteractions } from './live-interactions';
import type { NetworkInteractions } from './network-interactions';
import { stableJson } from '../ports/stable-json';

export interface InteractionServiceDeps {
  readonly stores: Stores;
  readonly vault: SecretVault;
  readonly bus: EventBus;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly executor: RunExecutor;
  readonly admission: AdmissionGate;
  /** Questions asked inside a running tool call (MCP elicitation), answered back into that call. */
  readonly live?: LiveInteractions;
  /** Fail-stops the agent tree a session belongs to (once): what an answer the host could not apply does. */
  readonly failStop?: (sessionId: string, reason: string) => void;
  /** A blocked host's card: answered without continuing anything. */
  readonly network?: NetworkInteractions;
}

/**
 * Answers what agents asked. An answer is checked against its request, recorded (secret answers
 * sealed in the vault, masked everywhere else) and continues the turn in a new run. The first answer
 * wins: the same answer again returns the same result; a different one is a conflict.
 */
/** What answering an interaction may answer: the answer's own refusals and those of the run it resumes. */
type AnswerError =
  | 'host_draining'
  | 'invalid_input'
  | 'not_found'
  | 'operation_conflict'
  | 'session_archived'
  | 'session_busy'
  | 'storage_damaged';

export class InteractionService {
  constructor(private readonly deps: InteractionServiceDeps) {}

  list(filter: {
    sessionId?: string;
    status?: InteractionStatus;
    limit?: number;
  }): Outcome<{ interactions: InteractionRecord[] }, 'not_found'> {
    if (filter.sessionId !== undefined && this.deps.stores.sessions.get(filter.sessionId) === null) {
      return fail('not_found', 'That session does not exist.');
    }
    const interactions = this.deps.stores.interactions
      .list({ ...filter, limit: filter.limit ?? 100 })
      .map(publicRecord);
    return ok({ interactions });
  }

  get(interactionId: string): Outcome<{ interaction: InteractionRecord }, 'not_found'> {
    const stored = this.deps.stores.interactions.get(interactionId);
    return stored === null ? missing() : ok({ interaction: publicRecord(stored) });
  }

  /**
   * `from`: the paired device answering (its name), recorded with the answer; null for the desktop.
   * An answer the host could not apply (a bug) fail-stops the agent tree it belongs to, then is thrown on.
   */
  answer(
    interactionId: string,
    answer: InteractionAnswer,
    from: string | null = null,
  ): Outcome<InteractionAnswerResult, AnswerError> {
    try {
      return this.apply(interactionId, answer, from);
    } catch (error) {
      const interaction = this.deps.stores.interactions.get(interactionId);
      if (interaction !== null)
        this.deps.failStop?.(
          interaction.sessionId,
          `An answer could not be applied: ${error instanceof Error ? error.message : String(error)}`,
        );
      throw error;
    }
  }

  private apply(
    interactionId: string,
    answer: InteractionAnswer,
    from: string | null,
  ): Outcome<InteractionAnswerResult, AnswerError> {
    const { stores, vault, clock, ids, bus, executor } = this.deps;
    const interaction = stores.interactions.get(interactionId);
    if (interaction === null) return missing();
    const problems = validateAnswer(interaction.request, answer);
    if (problems.length > 0) {
      return fail(
        'invalid_input',
        `Check the answer: ${problems.map((problem) => (problem.id === null ? problem.message : `${problem.id}: ${problem.message}`)).join(' ')}`,
      );
    }
    if (interaction.status !== 'pending') return this.repeated(interaction, answer);
    const session = stores.sessions.get(interaction.sessionId);
    if (session === null) return missing();
    if (session.archived) return fail('session_archived', 'This session is archived. Unarchive it to continue.');
    const refused = this.deps.admission.refusal();
    if (refused !== null) return refused;
    // Settled in this same tick by one of the paths below, which read the row back with it.
    stores.interactions.noteAnsweredFrom(interactionId, from);
    if (interaction.request.kind === 'network') {
      return (
        this.deps.network?.answer(interaction, answer) ??
        fail('invalid_input', 'This host has no way to allow network.')
      );
    }
    // A question of a running run was asked inside a live tool call: the answer goes back into it.
    if (this.deps.live !== undefined && stores.turns.getRun(interaction.runId)?.status !== 'waiting')
      return this.deps.live.answer(interaction, answer);

    const secret = answer.action === 'accept' && hasSecret(interaction.request);
    const permission = interaction.request.kind === 'permission';
    const decision = permission ? permissionDecisionOf(answer) : null;
    const allowed = decision !== null && decision !== 'deny';
    const callItem = permission ? stores.transcript.toolCall(interaction.runId, interaction.toolCallId) : null;
    const unsandboxed = decision === 'allow_once_unsandboxed';
    if (unsandboxed && (interaction.request.kind !== 'permission' || interaction.request.toolName !== 'run_shell')) {
      return fail('invalid_input', 'Only a command of run_shell can be run without the sandbox.');
    }
    const approvedToolCall =
      allowed && callItem?.data != null
        ? {
            toolCallId: interaction.toolCallId,
            toolName: String(callItem.data.toolName),
            input: callItem.data.input ?? {},
            ...(unsandboxed ? { unsandboxed: true } : {}),
          }
        : null;
    const secretId = secret ? `answer-${interactionId}` : null;
    if (secretId !== null) vault.put(secretId, JSON.stringify(answer));
    const { sessionId, turnId, runId } = interaction;
    const continuationId = ids.next('run');
    const { events, settled } = stores.transaction(() => {
      const now = clock.now();
      const settledInteraction = settleAnswer(stores, interaction, answer, secretId, now);
      const ended =
        endRun(
          stores,
          { sessionId, turnId, runId },
          { status: 'completed', terminalReason: 'interaction_answered' },
          now,
        ) ?? [];
      openNextRun(
        stores,
        { sessionId, turnId, runId: continuationId, kind: 'continuation' },
        { after: interactionId },
        now,
      );
      const changes: ChangeEventBody[] = [
        { kind: 'interaction.changed', interaction: publicRecord(settledInteraction) },
        ...ended,
      ];
      // An approved call runs in the continuation and records its own result; anything else answers now.
      if (approvedToolCall === null) {
        const toolName = permission ? String(callItem?.data?.toolName ?? interaction.request.kind) : ASK_USER_TOOL_NAME;
        const data = {
          toolCallId: interaction.toolCallId,
          toolName,
          output: interactionOutput(interaction.request, answer, { masked: true }),
          isError: permission,
          interactionId,
          masked: secret,
        };
        const item = stores.transcript.append(
          {
            sessionId,
            itemId: ids.next('item'),
            turnId,
            runId: continuationId,
            kind: 'tool_result',
            text: toolName,
            state: 'final',
            data,
            now,
          },
          stores.sessions.reservePositions(sessionId, 1),
        );
        stores.ledger.append(continuationId, [{ kind: 'tool_result', payload: { itemId: item.itemId, ...data } }], now);
        changes.push({ kind: 'transcript.appended', item });
      }
      stores.sessions.touch(sessionId, now);
      changes.push(...turnAndSessionEvents(stores, sessionId, turnId));
      return { events: changes, settled: settledInteraction };
    });
    for (const event of events) bus.publish(event);
    executor.launch({ sessionId, turnId, runId: continuationId, kind: 'continuation' }, null, approvedToolCall);
    const turn = stores.turns.getTurn(sessionId, turnId);
    if (turn === null) throw new Error('Answered turn vanished');
    return ok({ interaction: publicRecord(settled), turn });
  }

  /**
   * Closes the pending interaction of a waiting run; call inside the transaction that ends the run.
   * Returns the change event to publish, or null when nothing was pending.
   */
  closeForRun(runId: string, reason: InteractionCloseReason, now: number): ChangeEventBody | null {
    const pending = this.deps.stores.interactions.pendingOfRun(runId);
    if (pending === null) return null;
    const closed = this.deps.stores.interactions.settle(pending.interactionId, {
      status: 'closed',
      answer: null,
      answerSecretId: null,
      closeReason: reason,
      now,
    });
    this.deps.stores.ledger.append(
      runId,
      [
        {
          kind: 'interaction_answered',
          payload: { interactionId: closed.interactionId, status: 'closed', closeReason: reason },
        },
      ],
      now,
    );
    return { kind: 'interaction.changed', interaction: publicRecord(closed) };
  }

  private repeated(
    interaction: StoredInteraction,
    answer: InteractionAnswer,
  ): Outcome<InteractionAnswerResult, 'operation_conflict'> {
    const turn = this.deps.stores.turns.getTurn(interaction.sessionId, interaction.turnId);
    if (interaction.status === 'closed') {
      return fail(
        'operation_conflict',
        `This question was closed (${interaction.closeReason ?? 'closed'}) and can no longer be answered.`,
      );
    }
    const given = fullAnswer(this.deps.vault, interaction);
    if (given !== null && turn !== null && stableJson(given) === stableJson(answer)) {
      return ok({ interaction: publicRecord(interaction), turn });
    }
    return fail('operation_conflict', 'This question was already answered differently; the first answer stands.');
  }
}

function publicRecord(stored: StoredInteraction): InteractionRecord {
  const { answerSecretId: _secret, ...record } = stored;
  return record;
}

function missing() {
  return fail('not_found', 'That question does not exist.');
}
