import { ok } from '../../../src-shared/errors';
import type { HandlerTable } from '../handler';

export const workhubHandlers: HandlerTable<
  | 'workhub.candidates'
  | 'workhub.route'
  | 'workhub.act'
  | 'workhub.action.get'
  | 'workhub.cancel'
  | 'workhub.delegations'
> = {
  'workhub.candidates': ({ runtime }, input) => ok(runtime.workhub.candidates(input.query)),
  'workhub.route': ({ runtime }, input) => runtime.workhub.route(input.requestId, input.text),
  'workhub.act': ({ runtime }, input) => runtime.workhub.act(input),
  'workhub.action.get': ({ runtime }, input) => runtime.workhub.action(input.actionId),
  'workhub.cancel': ({ runtime }, input) => runtime.workhub.cancel(input.requestId),
  'workhub.delegations': ({ runtime }, input) => ok(runtime.workhub.delegations(input.limit ?? 100)),
};
