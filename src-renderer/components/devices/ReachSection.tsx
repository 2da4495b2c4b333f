import { useState } from 'react';
import type { Outcome } from '../../../src-shared/errors';
import type { ReachStatus } from '../../../src-shared/device-model';
import { useAppStore } from '../../state/store-context';
import type { RunDeviceCall } from './DevicesPage';

/** "Reach this Cairn from other devices": on or off, on which address, and the certificate a device should see. */
export function ReachSection({ reach, run }: { reach: ReachStatus; run: RunDeviceCall }) {
  const link = useAppStore((state) => state.hostLink);
  const [address, setAddress] = useState(reach.address ?? reach.addresses[0] ?? '');
  const [busy, setBusy] = useState(false);
  const on = reach.listening || reach.source === 'settings';
  const call = async <T,>(work: () => Promise<Outcome<T>>) => {
    setBusy(true);
    await run(work);
    setBusy(false);
  };
  const set = (enabled: boolean, chosen = address) =>
    void call(() =>
      link.invoke('device.reach.set', enabled && chosen !== '' ? { enabled, address: chosen } : { enabled }),
    );
  return (
    <section className="settings-section" aria-labelledby="devices-reach">
      <h4 id="devices-reach">Reach this Cairn from other devices</h4>
      {!reach.available ? (
        <p className="settings-note">This Cairn cannot open a listener for other devices.</p>
      ) : (
        <>
          <label className="check-row">
            <input
              type="checkbox"
              checked={on}
              disabled={busy || reach.source === 'command_line'}
              onChange={(event) => set(event.target.checked)}
              data-testid="reach-toggle"
            />
            <span>Let phones and other computers pair with this Cairn and reach it over HTTPS</span>
          </label>
          <label className="devices-field">
            <span>Address</span>
            <select
              value={address}
              disabled={busy || reach.source === 'command_line'}
              onChange={(event) => {
                setAddress(event.target.value);
                if (on) set(true, event.target.value);
              }}
            >
              {[...new Set([...(reach.address === null ? [] : [reach.address]), ...reach.addresses])].map((choice) => (
                <option key={choice} value={choice}>
                  {choice}
                </option>
              ))}
            </select>
          </label>
          {reach.source === 'command_line' ? (
            <p className="settings-note">
              Opened with --listen for this run; restart the host without it to choose here.
            </p>
          ) : null}
          {reach.problem === null ? null : <p className="form-notice tone-error">{reach.problem}</p>}
          {reach.listening && reach.origin !== null ? (
            <dl className="devices-reach-facts" data-testid="reach-status">
              <dt>Other devices open</dt>
              <dd>
                <code>{reach.origin}</code>
              </dd>
              {reach.certificate === null ? null : (
                <>
                  <dt>Certificate SHA-256</dt>
                  <dd>
                    <code className="devices-fingerprint" data-testid="reach-fingerprint">
                      {reach.certificate.fingerprint}
                    </code>
                    <span className="settings-note">
                      {reach.certificate.source === 'generated' ? 'Made by Cairn' : 'Yours'}, valid until{' '}
                      {new Date(reach.certificate.validTo).toLocaleDateString()}. Compare it with the one the browser
                      shows on the other device before accepting.
                    </span>
                  </dd>
                </>
              )}
            </dl>
          ) : null}
          {reach.listening && reach.certificate?.source === 'generated' ? (
            <div className="devices-actions">
              <button
                type="button"
                className="button button-small"
                disabled={busy}
                onClick={() => void call(() => link.invoke('device.reach.regenerate', {}))}
              >
                Regenerate certificate
              </button>
              <span className="settings-note">No device is signed out; each browser warns once more.</span>
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}
