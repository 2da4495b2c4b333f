import type { HandlerTable } from '../handler';

export const permissionHandlers: HandlerTable<'permission.grants.list' | 'permission.grants.revoke' | 'permission.hosts.remove'> = {
  'permission.grants.list': ({ runtime }, input) => runtime.grants.list(input.sessionId),
  'permission.grants.revoke': ({ runtime }, input) => runtime.grants.revoke(input.sessionId, input.toolName),
  'permission.hosts.remove': ({ runtime }, input) => runtime.grants.removeHost(input.sessionId, input.host),
};
