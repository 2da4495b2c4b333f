import type { ChangeEventBody } from '../../../src-shared/events';
import { fail, ok, type Outcome } from '../../../src-shared/errors';
import {
  networkDecisionOf,
  type InteractionAnswer,
  type InteractionRecord,
  type NetworkDecision,
} from '../../../src-shared/interaction-model';
import type { InteractionAnswerResult } from '../../../src-shared/operations';
import type { StoredInteraction } from '../../storage/interaction-store';
import type { Stores } from '../../storage/stores';
import type { EventBus } from '../ports/event-bus';
import type { Clock, Ids } from '../ports/ports';
import type { NetworkBlock } from '../sandbox/sandbox-service';
import { blockedLine } from '../sandbox/network-proxy';
import { turnAndSessionEvents } from '../turns/run-lifecycle';

/** Where an allowed host goes: the next command of the session, the session's list, the global list. */
export interface HostGrants {
  allowOnce(sessionId: string, host: string): void;
  allowHost(sessionId: string, host: string, scope: 'session' | 'always'): unknown;
}

export interface NetworkInteractionsDeps {
  readonly stores: Stores;
  readonly bus: EventBus;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly grants: HostGrants;
}

/**
 * A host the sandbox's proxy refused, in the transcript where the command ran: a notice attributed
 * to the tool call ("blocked by the sandbox: network to <host>") that carries the card "Allow network
 * to <host>". The card is a durable interaction but holds up nothing: the command has failed already
 * and the turn goes on; answering only changes what the next command may reach, and works while the
 * turn runs or after it ended. One card per host while one is pending in the session; each later
 * block of that host is a plain notice. Cairn's own port gets a notice and never a card, as does a
 * walled agent's request made while no run of its session was in flight (`noCard`: in its latest run).
 */
export class NetworkInteractions {
  constructor(private readonly deps: NetworkInteractionsDeps) {}

  blocked(block: NetworkBlock): void {
    const { stores, clock, ids, bus } = this.deps;
    const { sessionId, turnId, runId, toolCallId } = block;
    if (turnId === undefined || runId === undefined || stores.sessions.get(sessionId) === null) return;
    const pending = stores.interactions
      .pendingOfSession(sessionId)
      .some((interaction) => interaction.request.kind === 'network' && interaction.request.host === block.host);
    // No card for Cairn's own port, a host already asked about, or a walled agent's block outside a run.
    const ask = !block.own && !pending && block.noCard !== true;
    const events = stores.transaction(() => {
      const now = clock.now();
      const changes: ChangeEventBody[] = [];
      let interactionId: string | null = null;
      if (ask) {
        interactionId = ids.next('interaction');
        const request = { kind: 'network' as const, host: block.host, port: block.port };
        const interaction = stores.interactions.insert({
          interactionId,
          sessionId,
          turnId,
          runId,
          toolCallId: toolCallId ?? `network-${interactionId}`,
          request,
          now,
        });
        stores.ledger.append(
          runId,
          [{ kind: 'interaction_requested', payload: { interactionId, request, live: false } }],
          now,
        );
        changes.push({ kind: 'interaction.changed', interaction: publicRecord(interaction) });
      }
      const text = block.own
        ? `${blockedLine(block.host)} (Cairn's own port ${block.port}: never reachable from the sandbox)`
        : blockedLine(block.host);
      const data = {
        ...(toolCallId === undefined ? {} : { toolCallId }),
        ...(interactionId === null ? {} : { interactionId }),
        network: { host: block.host, port: block.port },
      };
      const item = stores.transcript.append(
        { sessionId, itemId: ids.next('item'), turnId, runId, kind: 'notice', text, state: 'final', data, now },
        stores.sessions.reservePositions(sessionId, 1),
      );
      stores.sessions.touch(sessionId, now);
      return [
        { kind: 'transcript.appended', item } satisfies ChangeEventBody,
        ...changes,
        ...turnAndSessionEvents(stores, sessionId, turnId),
      ];
    });
    for (const event of events) bus.publish(event);
  }

  /** The person's answer to a card: settled, and the host allowed as they chose. Nothing continues. */
  answer(
    interaction: StoredInteraction,
    answer: InteractionAnswer,
  ): Outcome<InteractionAnswerResult, 'invalid_input' | 'not_found'> {
    const { stores, clock, bus, grants } = this.deps;
    if (interaction.request.kind !== 'network') return fail('invalid_input', 'Not a network request.');
    const decision: NetworkDecision = networkDecisionOf(answer);
    const { host } = interaction.request;
    const { sessionId, turnId } = interaction;
    const events = stores.transaction(() => {
      const now = clock.now();
      const settled = stores.interactions.settle(interaction.interactionId, {
        status: answer.action === 'accept' ? 'answered' : answer.action === 'decline' ? 'declined' : 'cancelled',
        answer,
        answerSecretId: null,
        closeReason: null,
        now,
      });
      stores.ledger.append(
        interaction.runId,
        [
          {
            kind: 'interaction_answered',
            payload: { interactionId: interaction.interactionId, status: settled.status, answer },
          },
        ],
        now,
      );
      stores.sessions.touch(sessionId, now);
      return {
        settled,
        changes: [
          { kind: 'interaction.changed', interaction: publicRecord(settled) } satisfies ChangeEventBody,
          ...turnAndSessionEvents(stores, sessionId, turnId),
        ],
      };
    });
    if (decision === 'allow_once') grants.allowOnce(sessionId, host);
    else if (decision === 'allow_session') grants.allowHost(sessionId, host, 'session');
    else if (decision === 'allow_always') grants.allowHost(sessionId, host, 'always');
    for (const event of events.changes) bus.publish(event);
    const turn = stores.turns.getTurn(sessionId, turnId);
    if (turn === null) return fail('not_found', 'The turn of this request is gone.');
    return ok({ interaction: publicRecord(events.settled), turn });
  }
}

function publicRecord(stored: StoredInteraction): InteractionRecord {
  const { answerSecretId: _secret, ...record } = stored;
  return record;
}
