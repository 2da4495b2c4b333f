import type { AcpInstallState } from '../../../src-shared/acp-install-model';
import type { AcpInstalls } from '../acp-installs-slice';

/** The newest state of one agent, unless the one held is newer. */
export function withInstall(state: AcpInstalls | null, install: AcpInstallState): AcpInstalls {
  const current = state?.[install.kind];
  return current !== undefined && current.updatedAt > install.updatedAt
    ? (state ?? {})
    : { ...state, [install.kind]: install };
}
