import type { HandlerTable } from '../handler';

export const hookHandlers: HandlerTable<
  'hooks.list' | 'hooks.trust' | 'hooks.setEnabled' | 'hooks.configure' | 'hooks.test'
> = {
  'hooks.list': ({ runtime }, input) => runtime.hookSettings.list(input),
  'hooks.trust': ({ runtime }, { path, hash, trusted, ...scope }) =>
    runtime.hookSettings.trust(scope, path, hash, trusted),
  'hooks.setEnabled': ({ runtime }, { hookId, enabled, ...scope }) =>
    runtime.hookSettings.setEnabled(scope, hookId, enabled),
  'hooks.configure': ({ runtime }, { useClaudeUserSettings, ...scope }) =>
    runtime.hookSettings.configure(scope, useClaudeUserSettings),
  'hooks.test': ({ runtime }, { hookId, ...scope }) => runtime.hookSettings.test(scope, hookId),
};
