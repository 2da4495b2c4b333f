import type { OperationError, Outcome } from '../../../src-shared/errors';
import type { ChangeEvent } from '../../../src-shared/events';
import type { SessionRecord } from '../../../src-shared/model';
import type { ActResult, DelegationRecord, Proposal } from '../../../src-shared/workhub-model';

/** One act the person asked for on a proposal card: its idempotency key and exactly what it sends. */
export interface ActionAttempt {
  readonly actionId: string;
  readonly proposal: Proposal;
  readonly candidateSetId: string | null;
  /** Set only after the person confirmed it in the dialog (stop and correct). */
  readonly confirmed: boolean;
}

/**
 * A proposal card as this window holds it: `open` until the person acts, `acting` while workhub.act
 * is out, then `done` (with the result) or `failed` (with the error, to retry or re-route); or
 * `dismissed` once the person cancelled it (the host records the cancellation).
 */
export interface ProposalCardState {
  readonly phase: 'open' | 'acting' | 'done' | 'failed' | 'dismissed';
  readonly attempt: ActionAttempt | null;
  readonly result: ActResult | null;
  readonly error: OperationError | null;
  /** The candidate list is open to pick a different target. */
  readonly picking: boolean;
}

export const OPEN_CARD: ProposalCardState = { phase: 'open', attempt: null, result: null, error: null, picking: false };

/** A stop or correction waiting for the person to confirm it. */
export interface PendingConfirmation {
  readonly requestId: string;
  readonly proposal: Proposal;
  readonly candidateSetId: string | null;
  /** The title of the session it concerns, for the dialog's question. */
  readonly targetTitle: string | null;
}

export interface WorkhubState {
  /** Proposal cards by the request id they answer. */
  readonly cards: Readonly<Record<string, ProposalCardState>>;
  readonly confirming: PendingConfirmation | null;
  /** Requests sent to workhub.route that have no answer yet (the host records them once routed). */
  readonly routing: ReadonlyArray<{ readonly requestId: string; readonly text: string }>;
  readonly tasksOpen: boolean;
  /** What the WorkHub handed to other sessions, newest first, with the live state of each. */
  readonly delegations: readonly DelegationRecord[];
  readonly delegationsLoaded: boolean;
}

export const EMPTY_WORKHUB: WorkhubState = {
  cards: {},
  confirming: null,
  routing: [],
  tasksOpen: false,
  delegations: [],
  delegationsLoaded: false,
};

export function cardOf(state: WorkhubState, requestId: string): ProposalCardState {
  return state.cards[requestId] ?? OPEN_CARD;
}

function withCard(state: WorkhubState, requestId: string, card: ProposalCardState): WorkhubState {
  return { ...state, cards: { ...state.cards, [requestId]: card } };
}

/** A value as JSON with object keys sorted, so two proposals that ask for the same thing read the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${canonical(inner)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

const ACTION_ID_LIMIT = 128;

/**
 * The action id (the host's idempotency key) for acting on a request with a proposal: the request id
 * and a digest of the proposal. The same act on the same card always gets the same id — a retry
 * after a lost answer, a second click after a reload, the same click in another window — so it is
 * never carried out twice; a different act (another target, new work) gets its own.
 */
export function actionIdFor(requestId: string, proposal: Proposal, newId: () => string): string {
  const id = `${requestId}.${digest(canonical(proposal))}`;
  return id.length <= ACTION_ID_LIMIT && /^[A-Za-z0-9_.:-]+$/.test(id) ? id : newId();
}

/** Whether an action id was made by actionIdFor for this request. */
export function isActionOf(actionId: string, requestId: string): boolean {
  return actionId.startsWith(`${requestId}.`);
}

/** FNV-1a, 32 bits, as 8 hex digits: short and stable (not a security measure). */
function digest(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/** Starts an act on a card. Returns null while an act is out or once one succeeded (a card acts once). */
export function beginAttempt(
  state: WorkhubState,
  requestId: string,
  attempt: ActionAttempt,
): { state: WorkhubState; attempt: ActionAttempt } | null {
  const card = cardOf(state, requestId);
  if (card.phase === 'acting' || card.phase === 'done') return null;
  const next = withCard(state, requestId, { ...card, phase: 'acting', attempt, error: null, picking: false });
  return { state: { ...next, confirming: null }, attempt };
}

/** The host's answer to an act; an answer for an attempt the card no longer holds is ignored. */
export function settleAttempt(
  state: WorkhubState,
  requestId: string,
  actionId: string,
  outcome: Outcome<ActResult>,
): WorkhubState {
  const card = state.cards[requestId];
  if (card === undefined || card.attempt?.actionId !== actionId || card.phase !== 'acting') return state;
  const settled: ProposalCardState = outcome.ok
    ? { ...card, phase: 'done', result: outcome.result, error: null }
    : { ...card, phase: 'failed', result: null, error: outcome.error };
  const delegation = outcome.ok ? delegationOf(outcome.result) : null;
  const next = withCard(state, requestId, settled);
  return delegation === null ? next : { ...next, delegations: upsertDelegation(next.delegations, delegation) };
}

/** Cancel on a card: it shows cancelled while workhub.cancel is out; `dismissed: false` reopens it if the host refused. */
export function dismissCard(state: WorkhubState, requestId: string, dismissed: boolean): WorkhubState {
  const card = cardOf(state, requestId);
  if (card.phase === 'acting' || card.phase === 'done') return state;
  if (dismissed) return withCard(state, requestId, { ...card, phase: 'dismissed', picking: false });
  return withCard(state, requestId, { ...card, phase: card.error === null ? 'open' : 'failed' });
}

export function setPicking(state: WorkhubState, requestId: string, picking: boolean): WorkhubState {
  const card = cardOf(state, requestId);
  if (card.picking === picking || card.phase === 'acting' || card.phase === 'done') return state;
  return withCard(state, requestId, { ...card, picking });
}

/** The delegation an act's result names, if any. */
export function delegationOf(result: ActResult): DelegationRecord | null {
  switch (result.kind) {
    case 'delegated':
    case 'resumed':
    case 'corrected':
      return result.delegation;
    case 'stopped':
      return result.delegation;
    default:
      return null;
  }
}

function byNewest(a: DelegationRecord, b: DelegationRecord): number {
  return b.createdAt - a.createdAt || (a.actionId < b.actionId ? 1 : a.actionId > b.actionId ? -1 : 0);
}

export function upsertDelegation(
  delegations: readonly DelegationRecord[],
  delegation: DelegationRecord,
): DelegationRecord[] {
  return [...delegations.filter((known) => known.actionId !== delegation.actionId), delegation].sort(byNewest);
}

export function applyDelegationList(state: WorkhubState, delegations: readonly DelegationRecord[]): WorkhubState {
  return { ...state, delegations: [...delegations].sort(byNewest), delegationsLoaded: true };
}

/**
 * Keeps the delegations' live state in step with host events: a target turn's status, a target
 * session's title, a target session removed. Returns the same array when nothing changed.
 */
export function applyDelegationEvents(
  delegations: readonly DelegationRecord[],
  events: readonly ChangeEvent[],
): readonly DelegationRecord[] {
  let next = delegations;
  for (const event of events) {
    const patch = patchFor(event);
    if (patch === null) continue;
    let changed = false;
    const updated = next.map((delegation) => {
      const fields = patch(delegation);
      if (fields === null) return delegation;
      changed = true;
      return { ...delegation, ...fields };
    });
    if (changed) next = updated;
  }
  return next;
}

type Patch = (delegation: DelegationRecord) => Partial<DelegationRecord> | null;

function patchFor(event: ChangeEvent): Patch | null {
  switch (event.kind) {
    case 'turn.changed': {
      const { turn } = event;
      return (delegation) =>
        delegation.targetSessionId === turn.sessionId &&
        delegation.targetTurnId === turn.turnId &&
        delegation.status !== turn.status &&
        delegation.status !== 'removed'
          ? { status: turn.status }
          : null;
    }
    case 'session.changed': {
      const { session } = event;
      return (delegation) =>
        delegation.targetSessionId === session.sessionId && delegation.targetTitle !== session.title
          ? { targetTitle: session.title }
          : null;
    }
    case 'session.removed':
      return (delegation) =>
        delegation.targetSessionId === event.sessionId && delegation.status !== 'removed'
          ? { status: 'removed' }
          : null;
    default:
      return null;
  }
}

/** Whether events name work the WorkHub delegated that this window does not know yet (so the list is re-read). */
export function eventsNameUnknownDelegation(
  delegations: readonly DelegationRecord[],
  events: readonly ChangeEvent[],
): boolean {
  return events.some(
    (event) =>
      event.kind === 'turn.changed' &&
      event.turn.origin === 'delegation' &&
      !delegations.some(
        (delegation) =>
          delegation.targetTurnId === event.turn.turnId && delegation.targetSessionId === event.turn.sessionId,
      ),
  );
}

/**
 * Delegations that need the person: waiting for an answer, or failed, while their session has not
 * moved on since (a session that ran something newer no longer counts).
 */
export function delegationsNeedingAttention(
  delegations: readonly DelegationRecord[],
  sessionsById: Readonly<Record<string, SessionRecord>>,
): DelegationRecord[] {
  const newestPerSession = new Set<string>();
  return delegations.filter((delegation) => {
    if (newestPerSession.has(delegation.targetSessionId)) return false;
    newestPerSession.add(delegation.targetSessionId);
    if (delegation.status !== 'waiting' && delegation.status !== 'failed') return false;
    const activity = sessionsById[delegation.targetSessionId]?.activity;
    return activity === undefined || activity === delegation.status;
  });
}
