import { useEffect } from 'react';
import type { ConnectionRecord } from '../../src-shared/connection-model';
import { verdictLabel } from '../forms/connection-form';
import { providerLabel } from '../forms/connection-labels';
import { latestTest, testedWhen } from '../format/connection-test';
import { useNow } from '../hooks/use-now';
import type { ConnectionCheck } from '../state/catalog-slice';
import { useAppStore, useStoreApi } from '../state/store-context';
import { ConnectionDetail } from './ConnectionDetail';
import { ConnectionEditor } from './connection-editor/ConnectionEditor';
import { PlusIcon, Spinner } from './icons';

/** Settings → Connections: the list on the left, the chosen connection (or the add form) on the right. */
export function ConnectionsPage({ selected }: { selected: string | 'new' | null }) {
  const store = useStoreApi();
  const catalog = useAppStore((state) => state.catalog);
  const checks = useAppStore((state) => state.connectionChecks);
  // A preset ACP agent's row says when its program is not installed.
  useEffect(() => void store.getState().loadAcpInstalls(), [store]);
  if (!catalog.loaded) {
    return (
      <div className="settings-loading">
        <Spinner label="Loading the connections" />
      </div>
    );
  }
  const fallback = catalog.defaultTarget?.connectionId ?? catalog.connections[0]?.connectionId ?? 'new';
  const shown =
    selected === 'new'
      ? 'new'
      : catalog.connections.some((c) => c.connectionId === selected)
        ? (selected as string)
        : fallback;
  const show = (connectionId: string | 'new') => store.getState().openSettings({ tab: 'connections', connectionId });

  return (
    <div className="connections-page">
      <div className="connections-side">
        <ul className="connection-list" aria-label="Connections">
          {catalog.connections.map((connection) => (
            <li key={connection.connectionId}>
              <button
                type="button"
                className={`connection-row${shown === connection.connectionId ? ' is-selected' : ''}`}
                aria-current={shown === connection.connectionId ? 'true' : undefined}
                data-testid="connection-row"
                data-connection-id={connection.connectionId}
                onClick={() => show(connection.connectionId)}
              >
                <span className="connection-row-top">
                  <span className="connection-row-name">{connection.name}</span>
                  {catalog.defaultTarget?.connectionId === connection.connectionId ? (
                    <span className="default-badge" data-testid="default-badge">
                      Default
                    </span>
                  ) : null}
                </span>
                <span className="connection-row-meta">
                  <span>{providerLabel(connection.providerType)}</span>
                  <ConnectionStatus connection={connection} check={checks[connection.connectionId]} />
                </span>
              </button>
            </li>
          ))}
        </ul>
        <button
          type="button"
          className={`button add-connection${shown === 'new' ? ' is-selected' : ''}`}
          onClick={() => show('new')}
        >
          <PlusIcon />
          Add connection
        </button>
      </div>
      <div className="connections-main">
        {shown === 'new' ? (
          <ConnectionEditor connection={null} />
        ) : (
          <ConnectionDetail key={shown} connectionId={shown} />
        )}
      </div>
    </div>
  );
}

/** The status a row shows: the last Test (when, verdict, and what it said on hover), or what is known without one. */
function ConnectionStatus({ connection, check }: { connection: ConnectionRecord; check: ConnectionCheck | undefined }) {
  const presetKind = connection.acpAgent?.preset?.kind;
  const install = useAppStore((state) => (presetKind === undefined ? undefined : state.acpInstalls?.[presetKind]));
  const test = latestTest(connection, check);
  const now = useNow(test !== null, 30_000, test?.testedAt);
  if (check?.state === 'testing') return <span className="connection-status">Testing…</span>;
  if (install !== undefined && install.status !== 'installed') {
    return (
      <span className="connection-status tone-warn" data-testid="connection-status" data-install={install.status}>
        {install.status === 'installing' ? 'Installing…' : 'Not installed'}
      </span>
    );
  }
  if (test !== null) {
    const { text, tone } = verdictLabel(test.verdict, connection.providerType);
    return (
      <span
        className={`connection-status tone-${tone}`}
        data-testid="connection-status"
        data-verdict={test.verdict}
        title={test.message}
      >
        {testedWhen(test, now)} · {text}
      </span>
    );
  }
  if (connection.builtIn) return <span className="connection-status tone-ok">Always available</span>;
  if (!connection.enabled) return <span className="connection-status">Turned off</span>;
  return <span className="connection-status tone-none">Not tested</span>;
}
