import { z } from 'zod';
import { wellFormedString } from '../well-formed-string';
import type {
  ActResult,
  CandidateSet,
  DelegationRecord,
  ProposalDecision,
  RecordedAction,
  RouteResult,
} from '../workhub-model';
import { proposalSchema } from '../workhub-proposal-schema';
import { defineOperation } from './define-operation';
import { id } from './fields';

export const workhubOperations = {
  'workhub.candidates': defineOperation<CandidateSet>()({
    mode: 'query',
    input: z.strictObject({ query: wellFormedString().max(2000).optional() }),
    errors: [],
  }),
  'workhub.route': defineOperation<RouteResult>()({
    mode: 'command',
    input: z.strictObject({ requestId: id, text: wellFormedString().trim().min(1, 'Say what you want').max(20_000) }),
    errors: ['provider_error', 'operation_conflict'],
  }),
  'workhub.act': defineOperation<ActResult>()({
    mode: 'command',
    input: z.strictObject({
      actionId: id,
      /** The routed request whose proposal this acts on: its decision is recorded in the WorkHub's transcript. */
      requestId: id.optional(),
      proposal: proposalSchema,
      candidateSetId: id.optional(),
      /** Only the UI sets this, when the person clicks to confirm. */
      confirmation: z.literal('user_confirmed').optional(),
    }),
    errors: [
      'invalid_input',
      'candidate_set_stale',
      'operation_conflict',
      'not_found',
      // Handing work to a session: the turn there is refused (archived since, or Reclaim space holds new runs).
      'session_archived',
      'session_busy',
    ],
  }),
  /** A WorkHub action's recorded result, by its action id (a replay of workhub.act returns the same). */
  'workhub.action.get': defineOperation<{ action: RecordedAction }>()({
    mode: 'query',
    input: z.strictObject({ actionId: id }),
    errors: ['not_found'],
  }),
  /** Cancels a routed request's proposal (nothing is done); the decision is recorded. Idempotent: a decided request answers its decision. */
  'workhub.cancel': defineOperation<{ decision: ProposalDecision }>()({
    mode: 'command',
    input: z.strictObject({ requestId: id }),
    errors: ['not_found'],
  }),
  'workhub.delegations': defineOperation<{ delegations: readonly DelegationRecord[] }>()({
    mode: 'query',
    input: z.strictObject({ limit: z.number().int().min(1).max(500).optional() }),
    errors: [],
  }),
} as const;
