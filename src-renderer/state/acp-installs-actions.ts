import type { SliceCreator } from './app-state';
import type { AcpInstallActions } from './acp-installs-slice';
import { withInstall } from './reducers/acp-installs-reducer';

/** Installing an ACP agent and cancelling it, and the registry's list, loaded on the first call (see deferredActions). */
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

  async loadAcpRegistry(refresh) {
    if (refresh) set({ acpRegistryRefreshing: true });
    const outcome = refresh
      ? await deps.link.invoke('acp.registry.refresh', {})
      : await deps.link.invoke('acp.registry.list', {});
    if (refresh) set({ acpRegistryRefreshing: false });
    if (!outcome.ok) return get().reportFailure(outcome.error);
    set({ acpRegistry: outcome.result.registry });
    // The installs of the registry's npm agents follow the list (a refresh may bring new ones).
    await get().loadAcpInstalls();
  },
});
