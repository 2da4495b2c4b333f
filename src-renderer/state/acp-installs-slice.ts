import type { AcpInstallKey, AcpInstallState } from '../../src-shared/acp-install-model';
import type { AcpRegistryList } from '../../src-shared/acp-registry-model';
import type { ChangeEvent } from '../../src-shared/events';
import type { SliceCreator } from './app-state';
import { deferredActions } from './deferred-actions';
import { withInstall } from './reducers/acp-installs-reducer';

export type AcpInstalls = Readonly<Partial<Record<AcpInstallKey, AcpInstallState>>>;

/**
 * Where each ACP agent's package stands (installed, installing with npm's lines, failed): read when
 * shown, then kept by `acp.install.changed`; and the ACP registry's list of agents, for Add connection.
 */
export interface AcpInstallsSlice {
  /** Null until first read. */
  readonly acpInstalls: AcpInstalls | null;
  /** The registry's list as last read; null until first read. */
  readonly acpRegistry: AcpRegistryList | null;
  /** Whether a Refresh of the registry's list is under way. */
  readonly acpRegistryRefreshing: boolean;
  loadAcpInstalls(): Promise<void>;
  installAcpAgent(kind: AcpInstallKey): Promise<void>;
  cancelAcpInstall(kind: AcpInstallKey): Promise<void>;
  /** Reads the registry's list (`refresh`: fetches it from the registry now). */
  loadAcpRegistry(refresh: boolean): Promise<void>;
  noteAcpInstallEvents(batch: readonly ChangeEvent[]): void;
}

/** Install, Cancel and the registry's list: their bodies load on the first call (acp-installs-actions). */
export type AcpInstallActions = Pick<AcpInstallsSlice, 'installAcpAgent' | 'cancelAcpInstall' | 'loadAcpRegistry'>;

/** Applies a batch of events: the newest state of each agent wins (states carry when they were made, so a late one cannot undo a newer). */
export function reduceAcpInstalls(state: AcpInstalls | null, batch: readonly ChangeEvent[]): AcpInstalls | null {
  let next = state;
  for (const event of batch) if (event.kind === 'acp.install.changed') next = withInstall(next, event.install);
  return next;
}

export const createAcpInstallsSlice: SliceCreator<AcpInstallsSlice> = (set, get, deps) => ({
  acpInstalls: null,
  acpRegistry: null,
  acpRegistryRefreshing: false,

  async loadAcpInstalls() {
    const outcome = await deps.link.invoke('acp.installs', {});
    if (!outcome.ok) return get().reportFailure(outcome.error);
    set({ acpInstalls: Object.fromEntries(outcome.result.installs.map((install) => [install.kind, install])) });
  },

  ...deferredActions<AcpInstallActions>({ installAcpAgent: true, cancelAcpInstall: true, loadAcpRegistry: true }, () =>
    import('./acp-installs-actions').then((module) => module.createAcpInstallActions(set, get, deps)),
  ),

  noteAcpInstallEvents(batch) {
    const next = reduceAcpInstalls(get().acpInstalls, batch);
    if (next !== get().acpInstalls) set({ acpInstalls: next });
  },
});
