import { useEffect, useState } from 'react';
import { onDevicePage } from '../platform/device-page';
import type { AcpInstallKey, AcpInstallState } from '../../src-shared/acp-install-model';
import { useAppStore, useStoreApi } from '../state/store-context';
import { Spinner } from './icons';

/**
 * Whether an ACP agent (a preset, or a registry npm agent) is installed, and the Install action when it
 * is not: npm's progress while it installs (with Cancel), "Installed 0.101.0" once it is, npm's error
 * when it failed.
 */
export function AcpAgentInstall({ kind, testId = 'acp-install' }: { kind: AcpInstallKey; testId?: string }) {
  const store = useStoreApi();
  const install = useAppStore((state) => state.acpInstalls?.[kind]);
  const loaded = useAppStore((state) => state.acpInstalls !== null);
  useEffect(() => {
    if (!loaded) void store.getState().loadAcpInstalls();
  }, [loaded, store]);
  const [onDevice] = useState(onDevicePage);
  if (install === undefined) return null;
  if (onDevice && install.status !== 'installed' && install.status !== 'installing')
    return (
      <p className="acp-install-line" data-testid={testId}>
        Not installed here. Agents are installed on the desktop.
      </p>
    );
  const start = () => void store.getState().installAcpAgent(kind);
  return (
    <div
      className="acp-install"
      data-testid={testId}
      data-kind={kind}
      data-status={install.status}
      role="group"
      aria-label="Agent install"
    >
      <InstallLine install={install} onInstall={start} onCancel={() => void store.getState().cancelAcpInstall(kind)} />
      {install.status === 'installing' && install.output.length > 0 ? (
        <pre className="acp-install-output" aria-live="polite" data-testid="acp-install-output">
          {install.output.slice(-4).join('\n')}
        </pre>
      ) : null}
      {install.status === 'failed' && install.error !== null ? (
        <pre className="acp-install-output tone-bad" data-testid="acp-install-error">
          {install.error}
        </pre>
      ) : null}
    </div>
  );
}

function InstallLine({
  install,
  onInstall,
  onCancel,
}: {
  install: AcpInstallState;
  onInstall: () => void;
  onCancel: () => void;
}) {
  const size = install.sizeHint === null ? '' : ` (${install.sizeHint})`;
  switch (install.status) {
    case 'installed':
      return (
        <p className="acp-install-line tone-ok">
          {install.installedVersion === null ? 'Installed' : `Installed ${install.installedVersion}`}
          {install.location === 'path'
            ? ' (found on PATH)'
            : install.location === 'beside_cairn'
              ? ' (beside Cairn)'
              : ''}
        </p>
      );
    case 'installing':
      return (
        <p className="acp-install-line" role="status">
          <Spinner />
          Installing <code>{install.packageSpec}</code>…
          <button type="button" className="button button-small button-quiet" onClick={onCancel}>
            Cancel
          </button>
        </p>
      );
    default:
      return (
        <p className="acp-install-line">
          {install.status === 'failed'
            ? 'The install failed — '
            : install.status === 'cancelled'
              ? 'Install cancelled — '
              : 'Not installed — '}
          <button type="button" className="button button-small" onClick={onInstall}>
            {`Install${size}`}
          </button>
          <span className="acp-install-help">
            npm installs <code>{install.packageSpec}</code> into Cairn’s data directory.
          </span>
        </p>
      );
  }
}
