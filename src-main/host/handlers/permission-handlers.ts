import { fail, ok } from '../../../src-shared/errors';
import type { HandlerTable } from '../handler';

export const permissionHandlers: HandlerTable<
  | 'permission.grants.list'
  | 'permission.grants.revoke'
  | 'permission.hosts.remove'
  | 'sandbox.settings.get'
  | 'sandbox.settings.set'
> = {
  'permission.grants.list': ({ runtime }, input) => runtime.grants.list(input.sessionId),
  'permission.grants.revoke': ({ runtime }, input) => runtime.grants.revoke(input.sessionId, input.toolName),
  'permission.hosts.remove': ({ runtime }, input) => runtime.grants.removeHost(input.sessionId, input.host),
  'sandbox.settings.get': ({ runtime }) => ok(runtime.sandboxSettings.get()),
  'sandbox.settings.set': ({ runtime }, input) => {
    const saved = runtime.sandboxSettings.set(input);
    return saved.ok ? ok(saved.value) : fail('invalid_input', saved.message);
  },
};
