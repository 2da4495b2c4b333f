import { EnabledSwitch } from './EnabledSwitch';
import { lazy, Suspense, useState } from 'react';
import { retryingImport } from '../platform/retrying-import';
import { agentChoosesModel, type ConnectionRecord } from '../../src-shared/connection-model';
import { verdictLabel } from '../forms/connection-form';
import { providerLabel } from '../forms/connection-labels';
import { latestTest, testedWhen } from '../format/connection-test';
import { useNow } from '../hooks/use-now';
import { findConnection, modelLabel, pickableModels } from '../state/reducers/catalog-reducer';
import { useAppStore, useStoreApi } from '../state/store-context';
import { ConnectionEditor } from './connection-editor/ConnectionEditor';
import { ConnectionModels } from './ConnectionModels';
import { ContextWindowSection } from './ContextWindowSection';
import { AcpImportSection } from './AcpImportSection';
import { CheckIcon, Spinner } from './icons';
import { ConnectionModelDefaults } from './ConnectionModelDefaults';
import { SettingsModelChoice } from './SettingsModelChoice';

/** One connection in Settings: its form, Test, its models, Make default, and Remove. */
export function ConnectionDetail({ connectionId }: { connectionId: string }) {
  const store = useStoreApi();
  const connection = useAppStore((state) => findConnection(state.catalog, connectionId));
  if (connection === undefined) return null;
  return (
    <div className="connection-detail" data-testid="connection-detail" data-connection-id={connectionId}>
      <header className="connection-detail-header">
        <div>
          <h3 className="settings-heading">{connection.name}</h3>
          <p className="settings-sub">
            {connection.builtIn
              ? 'Built in · runs the scripted demo agent on this machine'
              : providerLabel(connection.providerType)}
          </p>
        </div>
        {connection.builtIn ? null : (
          <EnabledSwitch
            enabled={connection.enabled}
            onChange={(enabled) =>
              store.getState().updateConnection({
                connectionId: connection.connectionId,
                expectedRevision: connection.revision,
                enabled,
              })
            }
          />
        )}
      </header>
      {connection.builtIn ? (
        <p className="settings-note">
          The Offline demo needs no key and no network. It follows directives such as <code>/stream</code>,{' '}
          <code>/ask</code> or <code>/goal</code>, so you can try Cairn before connecting a provider. It cannot be
          edited or removed.
        </p>
      ) : (
        <ConnectionEditor connection={connection} />
      )}
      <TestSection connection={connection} />
      {connection.providerType === 'acp' ? <SignInSection connectionId={connection.connectionId} /> : null}
      {connection.providerType === 'acp' ? (
        <p className="settings-note" data-testid="acp-models-note">
          The agent chooses its own model and runs its own tools: Cairn lists no models for it.
        </p>
      ) : (
        <>
          <ConnectionModels connection={connection} />
          <ConnectionModelDefaults connection={connection} />
        </>
      )}
      <DefaultSection connection={connection} />
      {connection.providerType === 'acp' ? <AcpImportSection connection={connection} /> : null}
      {connection.providerType === 'acp' ? null : <ContextWindowSection connection={connection} />}
      {connection.builtIn ? null : <RemoveSection connection={connection} />}
    </div>
  );
}

/** Sign in to the agent its own way (docs/acp.md "Signing in"): loads with the first ACP connection shown. */
const AcpSignIn = lazy(() =>
  retryingImport(() => import('./AcpSignIn')).then((module) => ({ default: module.AcpSignIn })),
);

function SignInSection({ connectionId }: { connectionId: string }) {
  return (
    <section className="settings-section" aria-labelledby={`signin-${connectionId}`}>
      <h4 id={`signin-${connectionId}`}>Sign in</h4>
      <Suspense fallback={null}>
        <AcpSignIn connectionId={connectionId} askFirst />
      </Suspense>
    </section>
  );
}

function TestSection({ connection }: { connection: ConnectionRecord }) {
  const store = useStoreApi();
  const check = useAppStore((state) => state.connectionChecks[connection.connectionId]);
  const testing = check?.state === 'testing';
  const test = latestTest(connection, check);
  const now = useNow(test !== null, 30_000, test?.testedAt);
  return (
    <section className="settings-section" aria-labelledby={`test-${connection.connectionId}`}>
      <h4 id={`test-${connection.connectionId}`}>Check the connection</h4>
      <div className="section-row">
        <button
          type="button"
          className="button"
          disabled={testing}
          onClick={() => void store.getState().testConnection(connection.connectionId)}
        >
          {testing ? <Spinner /> : null}
          Test
        </button>
        <div className="verdict-slot" role="status" aria-live="polite">
          {testing ? (
            <p className="verdict">Testing…</p>
          ) : test !== null ? (
            <p
              className={`verdict tone-${verdictLabel(test.verdict, connection.providerType).tone}`}
              data-testid="connection-verdict"
              data-verdict={test.verdict}
            >
              {test.verdict === 'ok' ? <CheckIcon /> : null}
              <strong>{verdictLabel(test.verdict, connection.providerType).text}</strong>
              <span>
                {test.message}
                {test.verdict === 'ok' && test.latencyMs > 0 ? ` (${test.latencyMs} ms)` : ''}
              </span>
              <span className="verdict-when">{testedWhen(test, now)}</span>
            </p>
          ) : (
            <p className="verdict tone-none">Sends a tiny request to see whether the key and address work.</p>
          )}
        </div>
      </div>
    </section>
  );
}

function DefaultSection({ connection }: { connection: ConnectionRecord }) {
  const store = useStoreApi();
  const defaultTarget = useAppStore((state) => state.catalog.defaultTarget);
  const models = pickableModels(connection);
  const isDefault = defaultTarget?.connectionId === connection.connectionId;
  const [choice, setChoice] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  // An agent with no model ticked chooses its own: it is made the default with none.
  const agentChooses = models.length === 0 && agentChoosesModel(connection.providerType);
  const chosen = agentChooses
    ? null
    : choice !== null && models.some((model) => model.modelId === choice)
      ? choice
      : ((isDefault ? defaultTarget.modelId : null) ?? models[0]?.modelId ?? '');
  const already = isDefault && defaultTarget.modelId === chosen;

  return (
    <section className="settings-section" aria-labelledby={`default-${connection.connectionId}`}>
      <h4 id={`default-${connection.connectionId}`}>Default for new sessions</h4>
      {isDefault ? (
        <p className="settings-note" data-testid="default-note">
          {defaultTarget.modelId === null ? (
            'New sessions use this connection; the agent chooses its model.'
          ) : (
            <>
              New sessions use this connection with <strong>{modelLabel(connection, defaultTarget.modelId)}</strong>.
            </>
          )}
        </p>
      ) : null}
      {models.length === 0 && !agentChooses ? (
        <p className="settings-note">Fetch the models and tick at least one to make this the default.</p>
      ) : !connection.enabled ? (
        <p className="settings-note">Turn the connection on to make it the default.</p>
      ) : (
        <div className="section-row">
          {chosen === null ? null : (
            <SettingsModelChoice
              label="Default model"
              connection={connection}
              models={models}
              value={chosen}
              onChoose={(modelId) => {
                setChoice(modelId);
                setNotice(null);
              }}
            />
          )}
          <button
            type="button"
            className="button"
            disabled={already || chosen === ''}
            onClick={() => {
              void store
                .getState()
                .makeDefault(connection.connectionId, chosen)
                .then((outcome) =>
                  setNotice(
                    outcome.ok
                      ? { tone: 'ok', text: 'New sessions will use it.' }
                      : { tone: 'error', text: outcome.message },
                  ),
                );
            }}
          >
            Make default
          </button>
          {notice === null ? null : (
            <p className={`form-notice tone-${notice.tone}`} role={notice.tone === 'error' ? 'alert' : 'status'}>
              {notice.text}
            </p>
          )}
        </div>
      )}
    </section>
  );
}

function RemoveSection({ connection }: { connection: ConnectionRecord }) {
  const store = useStoreApi();
  const [confirming, setConfirming] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <section className="settings-section danger-zone" aria-labelledby={`remove-${connection.connectionId}`}>
      <h4 id={`remove-${connection.connectionId}`}>Remove</h4>
      {confirming ? (
        <div className="confirm-box" role="group" aria-label="Confirm removal">
          <p>
            Remove “{connection.name}” and its stored key? Sessions that use it keep their history and will ask you to
            pick another connection.
          </p>
          <div className="section-row">
            <button type="button" className="button" autoFocus onClick={() => setConfirming(false)}>
              Cancel
            </button>
            <button
              type="button"
              className="button button-danger"
              disabled={busy}
              onClick={() => {
                setBusy(true);
                void store
                  .getState()
                  .removeConnection(connection.connectionId)
                  .then((outcome) => {
                    setBusy(false);
                    setConfirming(false);
                    if (outcome.ok) store.getState().openSettings({ tab: 'connections', connectionId: null });
                    else setMessage(outcome.message);
                  });
              }}
            >
              Remove connection
            </button>
          </div>
        </div>
      ) : (
        <div className="section-row">
          <button type="button" className="button button-quiet danger-text" onClick={() => setConfirming(true)}>
            Remove…
          </button>
          <span className="settings-note">Deletes the connection and its key from this machine.</span>
        </div>
      )}
      {message === null ? null : (
        <p className="form-notice tone-error" role="alert">
          {message}
        </p>
      )}
    </section>
  );
}
