import type { AcpInstallState } from '../../src-shared/acp-install-model';
import type { AcpPresetKind } from '../../src-shared/connection-model';
import type { ChangeEvent } from '../../src-shared/events';
import type { SliceCreator } from './app-state';

export type AcpInstalls = Readonly<Partial<Record<AcpPresetKind, AcpInstallState>>>;

/** Where each preset ACP agent's package stands (installed, installing with npm's lines, failed): read when shown, then kept by `acp.install.changed`. */
export interface AcpInstallsSlice {
  /** Null until first read. */
  readonly acpInstalls: AcpInstalls | null;
  loadAcpInstalls(): Promise<void>;
  installAcpAgent(kind: AcpPresetKind): Promise<void>;
  cancelAcpInstall(kind: AcpPresetKind): Promise<void>;
  noteAcpInstallEvents(batch: readonly ChangeEvent[]): void;
}

/** Applies a batch of events: the newest state of each agent wins (states carry when they were made, so a late one cannot undo a newer). */
export function reduceAcpInstalls(state: AcpInstalls | null, batch: readonly ChangeEvent[]): AcpInstalls | null {
  let next = state;
  for (const event of batch) if (event.kind === 'acp.install.changed') next = withInstall(next, event.install);
  return next;
}

function withInstall(state: AcpInstalls | null, install: AcpInstallState): AcpInstalls {
  const current = state?.[install.kind];
  return current !== undefined && current.updatedAt > install.updatedAt ? (state ?? {}) : { ...state, [install.kind]: install };
}

export const createAcpInstallsSlice: SliceCreator<AcpInstallsSlice> = (set, get, deps) => ({
  acpInstalls: null,

  async loadAcpInstalls() {
    const outcome = await deps.link.invoke('acp.installs', {});
    if (!outcome.ok) return get().reportFailure(outcome.error);
    set({ acpInstalls: Object.fromEntries(outcome.result.installs.map((install) => [install.kind, install])) });
  },

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

  noteAcpInstallEvents(batch) {
    const next = reduceAcpInstalls(get().acpInstalls, batch);
    if (next !== get().acpInstalls) set({ acpInstalls: next });
  },
});
