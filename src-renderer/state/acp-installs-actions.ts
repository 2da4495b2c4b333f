import type { SliceCreator } from './app-state';
import type { AcpInstallActions } from './acp-installs-slice';
import { withInstall } from './reducers/acp-installs-reducer';

/** Installing a preset ACP agent and cancelling it, loaded on the first call (see deferredActions). */
export const createAcpInstallActions: SliceCreator<AcpInstallActions> = (set, get, deps) => ({
  async installAcpAgent(kind) {
    const outcome = await deps.link.invoke('acp.install', { kind });
    if (!outcome.ok) return get().reportFailure(outcome.error);
    set((state) => ({ acpInstalls: withInstall(state.acpInstalls, outcome.result.install) }));
  },

  async cancelAcpInstall(kind) {
    const outcome = await deps.link.invoke('acp.install.cancel', { kind });
    if (!outcome.ok) return get().reportFailure(outcome.error);
    set((state) => ({ acpInstalls: withInstall(state.acpInstalls, outcome.result.install) }));
  },
});
