import { ok } from '../../../src-shared/errors';
import type { HandlerTable } from '../handler';

export const acpHandlers: HandlerTable<'acp.installs' | 'acp.install' | 'acp.install.cancel'> = {
  'acp.installs': ({ runtime }) => ok({ installs: runtime.acpInstaller.list() }),
  'acp.install': ({ runtime }, input) => ok({ install: runtime.acpInstaller.install(input.kind) }),
  'acp.install.cancel': async ({ runtime }, input) => ok({ install: await runtime.acpInstaller.cancel(input.kind) }),
};
