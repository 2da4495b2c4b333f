import { fail, ok } from '../../../src-shared/errors';
import type { HandlerTable } from '../handler';

export const acpHandlers: HandlerTable<
  | 'acp.installs'
  | 'acp.install'
  | 'acp.install.cancel'
  | 'acp.agent'
  | 'acp.offers'
  | 'acp.choose'
  | 'acp.login.methods'
  | 'acp.login.start'
  | 'acp.login.input'
  | 'acp.login.cancel'
> = {
  'acp.installs': ({ runtime }) => ok({ installs: runtime.acpInstaller.list() }),
  'acp.install': ({ runtime }, input) => ok({ install: runtime.acpInstaller.install(input.kind) }),
  'acp.install.cancel': async ({ runtime }, input) => ok({ install: await runtime.acpInstaller.cancel(input.kind) }),
  'acp.agent': ({ runtime }, input) => {
    if (runtime.sessions.get(input.sessionId).ok !== true) return fail('not_found', 'That session does not exist.');
    return ok({ agent: runtime.acpAgentOf(input.sessionId) });
  },
  'acp.offers': ({ runtime }, input) => {
    if (runtime.sessions.get(input.sessionId).ok !== true) return fail('not_found', 'That session does not exist.');
    return ok({ offers: runtime.acpOffersOf(input.sessionId) });
  },
  'acp.choose': ({ runtime }, input) => runtime.acpChoose(input),
  'acp.login.methods': async ({ runtime }, input) => {
    const methods = await runtime.acpLogins.methodsOf(input.connectionId, input.refresh === true);
    return methods.ok ? ok({ methods: methods.result }) : methods;
  },
  'acp.login.start': ({ runtime }, input) => runtime.acpLogins.start(input.connectionId, input.methodId),
  'acp.login.input': ({ runtime }, input) => runtime.acpLogins.input(input.loginId, input.text),
  'acp.login.cancel': ({ runtime }, input) => runtime.acpLogins.cancel(input.loginId),
};
