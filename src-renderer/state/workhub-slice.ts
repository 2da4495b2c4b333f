import type { ChangeEvent } from '../../src-shared/events';
import type { Proposal, RouteResult } from '../../src-shared/workhub-model';
import { WORKHUB_SESSION_ID } from '../../src-shared/workhub-model';
import type { SliceCreator } from './app-state';
import type { WorkhubState } from './reducers/workhub-reducer';
import { deferredActions } from './deferred-actions';
import {
  applyDelegationEvents,
  applyDelegationList,
  EMPTY_WORKHUB,
  eventsNameUnknownDelegation,
  setPicking,
} from './reducers/workhub-reducer';

const DELEGATIONS_LIMIT = 200;
/** Re-reads of the delegations that events ask for are folded together over this long. */
const DELEGATIONS_REFRESH_MS = 300;

/** The WorkHub: routing what the person wants, acting on proposals as they confirm, and the delegations it made. */
export interface WorkhubSlice {
  readonly workhub: WorkhubState;
  /** Opens the WorkHub's coordination chat in the main pane. */
  openWorkhub(): void;
  /** Sends the WorkHub composer's text to be routed (a fresh request id); the text comes back if it fails. */
  sendToWorkhub(): Promise<void>;
  /** Routes a text again as a new request (after its target went stale). */
  routeAgain(text: string): Promise<void>;
  /**
   * Acts on a proposal card: `proposal` is the card's own or an alternative the person picked. A stop
   * or a correction first asks for confirmation (confirmAction sends it).
   */
  actOnProposal(route: RouteResult, proposal: Proposal): Promise<void>;
  /** Sends a card's failed act again, with the same action id (so it is not done twice). */
  retryAct(requestId: string): Promise<void>;
  confirmAction(): Promise<void>;
  cancelConfirmation(): void;
  /** Cancel on a card: nothing is done, and the WorkHub records it (every window shows it cancelled). */
  cancelProposal(requestId: string): Promise<void>;
  setPicking(requestId: string, picking: boolean): void;
  setTasksOpen(open: boolean): void;
  loadDelegations(): Promise<void>;
  /** Applies a batch of host events to the delegations' live state (the sync slice calls it). */
  noteWorkhubEvents(events: readonly ChangeEvent[]): void;
}

/** Routing and acting on proposals, done from the WorkHub's view: the bodies load on the first call (workhub-actions). */
export type WorkhubActions = Pick<
  WorkhubSlice,
  'sendToWorkhub' | 'routeAgain' | 'actOnProposal' | 'retryAct' | 'confirmAction' | 'cancelProposal'
>;

export const createWorkhubSlice: SliceCreator<WorkhubSlice> = (set, get, deps) => {
  const { link, timers } = deps;
  let delegationsRequest = 0;
  let refreshTimer: unknown = null;

  const update = (change: (state: WorkhubState) => WorkhubState) =>
    set((state) => ({ workhub: change(state.workhub) }));

  function refreshDelegationsSoon() {
    if (refreshTimer !== null) return;
    refreshTimer = timers.setTimeout(() => {
      refreshTimer = null;
      void get().loadDelegations();
    }, DELEGATIONS_REFRESH_MS);
  }

  return {
    workhub: EMPTY_WORKHUB,
    ...deferredActions<WorkhubActions>(
      {
        sendToWorkhub: true,
        routeAgain: true,
        actOnProposal: true,
        retryAct: true,
        confirmAction: true,
        cancelProposal: true,
      },
      () => import('./workhub-actions').then((module) => module.createWorkhubActions(set, get, deps)),
    ),

    openWorkhub() {
      get().selectSession(WORKHUB_SESSION_ID);
      if (!get().workhub.delegationsLoaded) void get().loadDelegations();
    },

    cancelConfirmation() {
      update((state) => (state.confirming === null ? state : { ...state, confirming: null }));
    },

    setPicking(requestId, picking) {
      update((state) => setPicking(state, requestId, picking));
    },

    setTasksOpen(open) {
      update((state) => (state.tasksOpen === open ? state : { ...state, tasksOpen: open }));
      if (open) void get().loadDelegations();
    },

    async loadDelegations() {
      const request = ++delegationsRequest;
      const outcome = await link.invoke('workhub.delegations', { limit: DELEGATIONS_LIMIT });
      if (request !== delegationsRequest) return;
      get().flushEvents();
      if (!outcome.ok) {
        // The list is a convenience; a failed read keeps what is shown (the Tasks view says when it is empty).
        if (get().workhub.tasksOpen) get().reportFailure(outcome.error);
        return;
      }
      update((state) => applyDelegationList(state, outcome.result.delegations));
    },

    noteWorkhubEvents(events) {
      const { workhub } = get();
      if (!workhub.delegationsLoaded) return;
      const delegations = applyDelegationEvents(workhub.delegations, events);
      if (delegations !== workhub.delegations)
        update((state) => ({ ...state, delegations: applyDelegationEvents(state.delegations, events) }));
      if (eventsNameUnknownDelegation(delegations, events)) refreshDelegationsSoon();
    },
  };
};
