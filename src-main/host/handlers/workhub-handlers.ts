import { ok } from '../../../src-shared/errors';
import type { HandlerTable } from '../handler';

export const workhubHandlers: HandlerTable<'workhub.candidates' | 'workhub.route' | 'workhub.act' | 'workhub.delegations'> = {
  'workhub.candidates': ({ runtime }, input) => ok(runtime.workhub.candidates(input.query)),
  'workhub.route': ({ runtime }, input) => runtime.workhub.route(input.requestId, input.text),
  'workhub.act': ({ runtime }, input) => runtime.workhub.act(input),
  'workhub.delegations': ({ runtime }, input) => ok(runtime.workhub.delegations(input.limit ?? 100)),
};
