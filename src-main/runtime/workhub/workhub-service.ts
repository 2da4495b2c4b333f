import { fail, ok, type Failure, type Outcome } from '../../../src-shared/errors';
import type { FormRequest } from '../../../src-shared/interaction-model';
import type {
  ActResult,
  CandidateSet,
  DelegationRecord,
  Proposal,
  RouteResult,
  StopOutcome,
  WorkTarget,
} from '../../../src-shared/workhub-model';
import { NEEDS_CONFIRMATION, WORKHUB_SESSION_ID } from '../../../src-shared/workhub-model';
import type { StoredDelegation } from '../../storage/workhub-store';
import type { Stores } from '../../storage/stores';
import type { EventBus } from '../ports/event-bus';
import type { Clock, Ids, Logger } from '../ports/ports';
import { ProviderError } from '../connections/providers/provider-error';
import type { SessionService } from '../sessions/session-service';
import type { TurnService } from '../turns/turn-service';
import type { CandidateFinder } from './candidate-finder';
import type { Router } from './scripted-router';
import { stableJson } from '../ports/stable-json';
import { WorkHubChat } from './workhub-chat';
import { WorkHubDecisions, type ActError } from './workhub-decisions';
import { nothingRunningAnswer } from './stop-guard';

export const WORKHUB_CONNECTION_ID = 'workhub-router';
export const WORKHUB_STOP_SOURCE = 'workhub_stop';
/** A correction stops the earlier work to move the request elsewhere: its own reason, so the record tells a move from a Stop. */
export const WORKHUB_CORRECT_SOURCE = 'workhub_correct';

export interface WorkHubDeps {
  readonly stores: Stores;
  readonly bus: EventBus;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly logger: Logger;
  readonly finder: CandidateFinder;
  readonly router: () => Router;
  readonly turns: TurnService;
  readonly sessions: SessionService;
}

/** What a choose-form's tool call carries, so its answer can complete the action. */
export interface PendingChoice {
  readonly actionId: string;
  /** The request and the choose proposal it answers (absent in forms recorded before they were kept). */
  readonly requestId?: string;
  readonly proposal?: Proposal;
  readonly candidateSetId: string;
  readonly text: string;
}

type Refusal = Failure<'candidate_set_stale' | 'invalid_input' | 'not_found'>;

export interface ActRequest {
  readonly actionId: string;
  readonly requestId?: string;
  readonly proposal: Proposal;
  readonly candidateSetId?: string;
  readonly confirmation?: 'user_confirmed';
}

/**
 * The WorkHub: routes a request to a proposal (showing the candidates it considered) and acts on the
 * proposal only as the person confirms. An action id is the idempotency key: a retry, even after a
 * restart, returns the same result and does nothing twice; a refusal that changed nothing is not
 * recorded, so it leaves the id free. A
 * request is decided once; its decision is part of the WorkHub's transcript.
 */
export class WorkHubService {
  private readonly decisions: WorkHubDecisions;
  private readonly chat: WorkHubChat;

  constructor(private readonly deps: WorkHubDeps) {
    this.decisions = new WorkHubDecisions(deps);
    this.chat = new WorkHubChat(deps);
  }

  /** Creates the reserved coordination session if this data directory does not have it yet. */
  ensureSession(): void {
    const { stores, clock } = this.deps;
    if (stores.sessions.get(WORKHUB_SESSION_ID) !== null) return;
    stores.transaction(() =>
      stores.sessions.insert({
        sessionId: WORKHUB_SESSION_ID,
        title: 'WorkHub',
        titleSource: 'user',
        workspacePath: null,
        connectionId: WORKHUB_CONNECTION_ID,
        model: null,
        permissionMode: 'explore',
        now: clock.now(),
      }),
    );
  }

  candidates(query: string | undefined): CandidateSet {
    return this.deps.finder.find(query);
  }

  async route(requestId: string, text: string): Promise<Outcome<RouteResult, 'operation_conflict' | 'provider_error'>> {
    const { stores } = this.deps;
    const earlier = this.recordedRoute(requestId);
    if (earlier !== null) {
      return earlier.text === text
        ? ok(earlier.result)
        : fail('operation_conflict', 'A different request was already sent with this id.');
    }
    const set = this.deps.finder.find(text);
    const latestDelegationActionId = stores.workhub.delegations(1)[0]?.actionId ?? null;
    let routed;
    try {
      routed = await this.deps
        .router()
        .route({ text, candidates: set.candidates, latestDelegationActionId }, AbortSignal.timeout(120_000));
    } catch (error) {
      if (error instanceof ProviderError)
        return fail('provider_error', `The router could not decide: ${error.message}`);
      throw error;
    }
    const idle = nothingRunningAnswer(stores, routed.proposal, set.candidates);
    const chosen = idle ?? routed;
    const result: RouteResult = {
      requestId,
      proposal: chosen.proposal,
      why: chosen.why,
      candidateSetId: set.candidateSetId,
      candidates: set.candidates,
    };
    this.chat.recordTurn(requestId, text, [{ kind: 'proposal', text: routed.why, data: { ...result } }]);
    return ok(result);
  }

  act(request: ActRequest): Outcome<ActResult, ActError> {
    const { actionId, proposal } = request;
    const recorded = this.decisions.replay(actionId);
    if (recorded !== null) {
      if (stableJson(recorded.proposal) !== stableJson(proposal))
        return fail('operation_conflict', 'This action id was already used for a different action.');
      return recorded.outcome;
    }
    if (NEEDS_CONFIRMATION.includes(proposal.kind) && request.confirmation !== 'user_confirmed') {
      return fail('invalid_input', 'Stopping or moving work needs your confirmation: confirm it in the WorkHub first.');
    }
    // A form this action already put up answers a replay, whatever became of it since.
    if (proposal.kind === 'choose') {
      const asked = this.askedChoice(actionId);
      if (asked !== null) return ok({ kind: 'awaiting_choice', interactionId: asked });
    }
    if (request.requestId !== undefined) {
      const standing = this.decisions.standing(request.requestId, proposal);
      if (standing !== null) return standing;
    }
    return this.performAndRecord(request, proposal);
  }

  /** A WorkHub action's recorded result (workhub.action.get). */
  action(actionId: string) {
    return this.decisions.recordedAction(actionId);
  }

  /** Cancels a routed request's proposal: nothing is done, and the record says so. */
  cancel(requestId: string) {
    return this.decisions.cancel(requestId);
  }

  /**
   * Performs `request` and records its outcome under `recordAs` (a choice is recorded as the choose it
   * answers). A refusal that changed nothing leaves no record: the action id stays free and the request
   * undecided, so the person can try again; only a failure after an effect (a session made, work
   * stopped) is recorded, so a replay never repeats that effect.
   */
  private performAndRecord(request: ActRequest, recordAs: Proposal): Outcome<ActResult, ActError> {
    const effects = { happened: false };
    const outcome = this.perform(request, effects);
    // A form put up is not an outcome yet (its answer is).
    if (outcome.ok ? outcome.result.kind === 'awaiting_choice' : !effects.happened) return outcome;
    this.decisions.record({
      actionId: request.actionId,
      requestId: request.requestId ?? null,
      proposal: recordAs,
      outcome,
    });
    return outcome;
  }

  delegations(limit: number): { delegations: DelegationRecord[] } {
    return { delegations: this.deps.stores.workhub.delegations(limit).map((delegation) => this.live(delegation)) };
  }

  /** Completes a choose-form's action with the person's pick: a candidate, or new work. */
  completeChoice(choice: PendingChoice, picked: string): Outcome<ActResult, ActError> {
    const recorded = this.decisions.replay(choice.actionId);
    if (recorded !== null) return recorded.outcome;
    // A request cancelled (or otherwise decided) while its form was open is not carried out after all.
    const decided = choice.requestId === undefined ? null : this.decisions.decided(choice.requestId);
    if (decided !== null) return decided;
    const proposal: Proposal =
      picked === 'new'
        ? { kind: 'create_new', title: titleOf(choice.text), workspace: null, text: choice.text }
        : { kind: 'delegate_existing', candidateRef: picked, text: choice.text };
    // Recorded as the choose it answers, so a replay of that act returns what the pick did.
    const request: ActRequest = {
      actionId: choice.actionId,
      proposal,
      candidateSetId: choice.candidateSetId,
      ...(choice.requestId === undefined ? {} : { requestId: choice.requestId }),
    };
    return this.performAndRecord(request, choice.proposal ?? proposal);
  }

  /** A choice form closed without a pick: the request it asked about is cancelled. */
  closeChoice(choice: PendingChoice): void {
    if (choice.requestId !== undefined) this.decisions.cancel(choice.requestId);
  }

  private perform(request: ActRequest, effects: { happened: boolean }): Outcome<ActResult, ActError> {
    const { proposal, actionId } = request;
    switch (proposal.kind) {
      case 'answer_here':
        this.chat.say(proposal.text, request.requestId);
        return ok({ kind: 'answered', text: proposal.text });
      case 'clarify':
        this.chat.say(proposal.question, request.requestId);
        return ok({ kind: 'clarified', question: proposal.question });
      case 'create_new': {
        const created = this.deps.sessions.create({
          title: proposal.title,
          ...(proposal.workspace === null ? {} : { workspacePath: proposal.workspace }),
        });
        if (!created.ok) return created;
        effects.happened = true;
        return this.delegate(actionId, created.result.session.sessionId, proposal.text, true);
      }
      case 'delegate_existing': {
        const target = this.resolveRef(request.candidateSetId, proposal.candidateRef);
        return 'ok' in target ? target : this.delegate(actionId, target.sessionId, proposal.text, false);
      }
      case 'choose':
        return this.askToChoose(request, proposal);
      case 'stop_work': {
        const target = this.resolveTarget(request.candidateSetId, proposal.target);
        if ('ok' in target) return target;
        return ok({
          kind: 'stopped',
          outcome: this.stopOwned(target.sessionId, target.delegation),
          delegation: target.delegation === null ? null : this.live(target.delegation),
        });
      }
      case 'resume_work': {
        const target = this.resolveTarget(request.candidateSetId, proposal.target);
        if ('ok' in target) return target;
        if (target.delegation === null)
          return fail(
            'not_found',
            'No work was handed to that session from the WorkHub, so there is nothing of ours to resume.',
          );
        const resumed = this.deps.turns.resume(target.sessionId, target.delegation.targetTurnId);
        if (!resumed.ok) return resumed;
        return ok({ kind: 'resumed', delegation: this.live(target.delegation) });
      }
      case 'correct': {
        const replaced = this.deps.stores.workhub.delegationOfAction(proposal.replacesActionId);
        if (replaced === null) return fail('not_found', 'The action to correct did not hand anything over.');
        let sessionId: string;
        let created = false;
        if ('candidateRef' in proposal.target) {
          const target = this.resolveRef(request.candidateSetId, proposal.target.candidateRef);
          if ('ok' in target) return target;
          sessionId = target.sessionId;
        } else {
          const made = this.deps.sessions.create({ title: proposal.target.createNew.title });
          if (!made.ok) return made;
          sessionId = made.result.session.sessionId;
          created = true;
        }
        effects.happened = true;
        const stop = this.stopOwned(replaced.targetSessionId, replaced, WORKHUB_CORRECT_SOURCE);
        const moved = this.delegate(actionId, sessionId, replaced.text, created);
        if (!moved.ok || moved.result.kind !== 'delegated') return moved;
        return ok({ kind: 'corrected', stop, delegation: moved.result.delegation });
      }
    }
  }

  private delegate(
    actionId: string,
    sessionId: string,
    text: string,
    createdSession: boolean,
  ): Outcome<ActResult, ActError> {
    const { stores, turns, ids, clock } = this.deps;
    const turnId = `delegation-${actionId}`;
    // Handed over already (the record of the act was not written before a crash): say so, start nothing.
    const earlier = stores.workhub.delegationOfAction(actionId);
    if (earlier !== null)
      return ok({ kind: 'delegated', delegation: this.live(earlier), queued: false, createdSession });
    const busy = stores.turns.activeTurn(sessionId) !== null;
    const started = busy
      ? turns.submitMessage(sessionId, turnId, text)
      : turns.start({ sessionId, turnId, text, origin: 'delegation' });
    if (!started.ok) return started;
    const queued = 'disposition' in started.result && started.result.disposition === 'queued';
    const delegation: StoredDelegation = {
      delegationId: ids.next('delegation'),
      actionId,
      targetSessionId: sessionId,
      targetTurnId: turnId,
      text,
      createdAt: clock.now(),
    };
    stores.transaction(() => stores.workhub.insertDelegation(delegation));
    return ok({ kind: 'delegated', delegation: this.live(delegation), queued, createdSession });
  }

  /** Stops the delegated work if it is what runs there now; never the person's own work. */
  private stopOwned(
    sessionId: string,
    delegation: StoredDelegation | null,
    source: string = WORKHUB_STOP_SOURCE,
  ): StopOutcome {
    const { stores, turns, clock, bus } = this.deps;
    if (delegation !== null) {
      const message = stores.queue.get(sessionId, delegation.targetTurnId);
      if (message?.state === 'queued') {
        const cancelled = stores.transaction(() =>
          stores.queue.setState(sessionId, message.messageId, 'cancelled', null, clock.now()),
        );
        bus.publish({ kind: 'queue.changed', message: cancelled });
        return 'stop_delivered';
      }
    }
    const active = stores.turns.activeTurn(sessionId);
    if (active === null) return 'already_terminal';
    if (delegation === null || active.turnId !== delegation.targetTurnId) return 'not_owned';
    turns.stop(sessionId, active.turnId, source);
    return 'stop_delivered';
  }

  /** The form a choose act put up, whatever its state now; null if it put none up. */
  private askedChoice(actionId: string): string | null {
    const { stores } = this.deps;
    const turn = stores.turns.getTurnDetail(WORKHUB_SESSION_ID, `choose-${actionId}`);
    const firstRun = turn?.runs[0];
    if (firstRun === undefined) return null;
    return stores.interactions.byToolCall(firstRun.runId, `choose-${actionId}`)?.interactionId ?? null;
  }

  private askToChoose(act: ActRequest, proposal: Extract<Proposal, { kind: 'choose' }>): Outcome<ActResult, ActError> {
    const { stores } = this.deps;
    const { actionId, candidateSetId } = act;
    const { candidateRefs: refs, text } = proposal;
    const toolCallId = `choose-${actionId}`;
    const options: { value: string; label: string }[] = [];
    for (const ref of refs) {
      const target = this.resolveRef(candidateSetId, ref);
      if ('ok' in target) return target;
      options.push({ value: ref, label: stores.sessions.get(target.sessionId)?.title ?? ref });
    }
    options.push({ value: 'new', label: 'Start new work' });
    const request: FormRequest = {
      kind: 'form',
      title: 'Where should this go?',
      description: text.length > 300 ? `${text.slice(0, 300)}…` : text,
      fields: [{ id: 'target', label: 'Hand it to', required: true, type: 'single_select', options }],
    };
    const choice: PendingChoice = {
      actionId,
      candidateSetId: candidateSetId ?? '',
      text,
      proposal,
      ...(act.requestId === undefined ? {} : { requestId: act.requestId }),
    };
    const interactionId = this.chat.recordTurn(
      `choose-${actionId}`,
      'Several sessions could take this. Where should it go?',
      [],
      {
        toolCallId,
        input: { workhubChoice: choice },
        request,
      },
    );
    return ok({ kind: 'awaiting_choice', interactionId: interactionId ?? '' });
  }

  private resolveRef(candidateSetId: string | undefined, candidateRef: string): { sessionId: string } | Refusal {
    const entries = candidateSetId === undefined ? null : this.deps.stores.workhub.candidateSet(candidateSetId);
    if (entries === null)
      return fail('candidate_set_stale', 'Those candidates are out of date; ask again to get a fresh list.');
    const entry = entries.find((candidate) => candidate.candidateRef === candidateRef);
    if (entry === undefined) return fail('invalid_input', `There is no candidate ${candidateRef} in that list.`);
    const session = this.deps.stores.sessions.get(entry.sessionId);
    if (session === null || session.archived) {
      return fail(
        'candidate_set_stale',
        `The session chosen was ${session === null ? 'deleted' : 'archived'} since the list was made; nothing was done.`,
      );
    }
    return { sessionId: entry.sessionId };
  }

  private resolveTarget(
    candidateSetId: string | undefined,
    target: WorkTarget,
  ): { sessionId: string; delegation: StoredDelegation | null } | Refusal {
    if ('delegationActionId' in target) {
      const delegation = this.deps.stores.workhub.delegationOfAction(target.delegationActionId);
      if (delegation === null) return fail('not_found', 'That action did not hand anything over.');
      if (this.deps.stores.sessions.get(delegation.targetSessionId) === null)
        return fail('candidate_set_stale', 'The session it went to was deleted.');
      return { sessionId: delegation.targetSessionId, delegation };
    }
    const resolved = this.resolveRef(candidateSetId, target.candidateRef);
    if ('ok' in resolved) return resolved;
    return {
      sessionId: resolved.sessionId,
      delegation: this.deps.stores.workhub.latestDelegationTo(resolved.sessionId),
    };
  }

  private live(delegation: StoredDelegation): DelegationRecord {
    const { stores } = this.deps;
    const session = stores.sessions.get(delegation.targetSessionId);
    const message = stores.queue.get(delegation.targetSessionId, delegation.targetTurnId);
    const turn = stores.turns.getTurn(delegation.targetSessionId, delegation.targetTurnId);
    const status: DelegationRecord['status'] =
      session === null
        ? 'removed'
        : message?.state === 'queued'
          ? 'queued'
          : message?.state === 'cancelled'
            ? 'cancelled'
            : (turn?.status ?? 'queued');
    return { ...delegation, status, targetTitle: session?.title ?? null };
  }

  private recordedRoute(requestId: string): { text: string; result: RouteResult } | null {
    const turn = this.deps.stores.turns.getTurn(WORKHUB_SESSION_ID, requestId);
    if (turn === null) return null;
    const data = this.deps.stores.workhub.routedProposal(requestId);
    return data === null ? null : { text: turn.text, result: data as unknown as RouteResult };
  }
}

function titleOf(text: string): string {
  const first = text.split('\n')[0]?.trim() ?? 'New work';
  return first.length > 60 ? `${first.slice(0, 59)}…` : first || 'New work';
}
