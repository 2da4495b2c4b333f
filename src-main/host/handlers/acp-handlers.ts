import { fail, ok } from '../../../src-shared/errors';
import type { HandlerTable } from '../handler';

export const acpHandlers: HandlerTable<
  | 'acp.installs'
  | 'acp.install'
  | 'acp.install.cancel'
  | 'acp.registry.list'
  | 'acp.registry.refresh'
  | 'acp.agent'
  | 'acp.offers'
  | 'acp.choose'
  | 'acp.sessions'
  | 'acp.import'
  | 'acp.login.methods'
  | 'acp.login.start'
  | 'acp.login.input'
  | 'acp.login.cancel'
> = {
  'acp.installs': ({ runtime }) => ok({ installs: runtime.acpInstaller.list() }),
  'acp.install': ({ runtime }, input) => {
    if (runtime.acpInstaller.target(input.kind) === null)
      return fail(
        'invalid_input',
        'The agent list holds no npm agent by that id: refresh the list, or use a custom command.',
      );
    return ok({ install: runtime.acpInstaller.install(input.kind) });
  },
  'acp.install.cancel': async ({ runtime }, input) => {
    if (runtime.acpInstaller.target(input.kind) === null)
      return fail('invalid_input', 'Nothing is installing by that id.');
    return ok({ install: await runtime.acpInstaller.cancel(input.kind) });
  },
  'acp.registry.list': ({ runtime }) => {
    runtime.acpRegistry.refreshIfDue();
    return ok({ registry: runtime.acpRegistry.list() });
  },
  'acp.registry.refresh': async ({ runtime }) => ok({ registry: await runtime.acpRegistry.refresh() }),
  'acp.agent': ({ runtime }, input) => {
    if (runtime.sessions.get(input.sessionId).ok !== true) return fail('not_found', 'That session does not exist.');
    return ok({ agent: runtime.acpAgentOf(input.sessionId) });
  },
  'acp.offers': ({ runtime }, input) => {
    if (runtime.sessions.get(input.sessionId).ok !== true) return fail('not_found', 'That session does not exist.');
    return ok({ offers: runtime.acpOffersOf(input.sessionId) });
  },
  'acp.choose': ({ runtime }, input) => runtime.acpChoose(input),
  'acp.sessions': ({ runtime }, input) => runtime.acpImport.list(input),
  'acp.import': ({ runtime }, input) => runtime.acpImport.import(input),
  'acp.login.methods': async ({ runtime }, input) => {
    const methods = await runtime.acpLogins.methodsOf(input.connectionId, input.refresh === true);
    return methods.ok ? ok({ methods: methods.result }) : methods;
  },
  'acp.login.start': ({ runtime }, input) => runtime.acpLogins.start(input.connectionId, input.methodId),
  'acp.login.input': ({ runtime }, input) => runtime.acpLogins.input(input.loginId, input.text),
  'acp.login.cancel': ({ runtime }, input) => runtime.acpLogins.cancel(input.loginId),
};
