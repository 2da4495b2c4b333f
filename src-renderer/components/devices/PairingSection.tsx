import { useState } from 'react';
import type { PairingOffer } from '../../../src-shared/device-model';
import type { DeviceListResult } from '../../../src-shared/operations/device-operations';
import { useNow } from '../../hooks/use-now';
import { useAppStore } from '../../state/store-context';
import type { RunDeviceCall } from './DevicesPage';

/** "Pair a device": the QR code and short code with its countdown, and "Pair <name>?" when a device proved it. */
export function PairingSection({
  pairing,
  listening,
  run,
}: {
  pairing: DeviceListResult['pairing'];
  listening: boolean;
  run: RunDeviceCall;
}) {
  const link = useAppStore((state) => state.hostLink);
  const [offer, setOffer] = useState<PairingOffer | null>(null);
  const now = useNow(pairing !== null);
  // The host's view wins: a code used, cancelled or expired elsewhere is gone here too.
  const shown = pairing === null ? null : offer !== null && offer.code === pairing.code ? offer : null;
  const secondsLeft = pairing === null ? 0 : Math.max(0, Math.ceil((pairing.expiresAt - now) / 1000));
  const start = async () => setOffer(await run(() => link.invoke('device.pairing.start', {})));
  const cancel = () => void run(() => link.invoke('device.pairing.cancel', {})).then(() => setOffer(null));
  const answer = (requestId: string, accept: boolean) =>
    void run(() => link.invoke('device.pairing.confirm', { requestId, accept }));

  return (
    <section className="settings-section" aria-labelledby="devices-pair">
      <h4 id="devices-pair">Pair a device</h4>
      {!listening ? (
        <p className="settings-note">Turn on “Reach this Cairn from other devices” first.</p>
      ) : pairing !== null && pairing.request !== null ? (
        <div className="devices-request" role="alert" data-testid="pair-request">
          <p className="devices-request-question">Pair {pairing.request.deviceName}?</p>
          <p className="settings-note">
            It asked from {pairing.request.address}. Pair it only if it is yours and you just entered the code on it.
          </p>
          <div className="devices-actions">
            <button
              type="button"
              className="button button-primary"
              onClick={() => answer(pairing.request?.requestId ?? '', true)}
            >
              Pair
            </button>
            <button type="button" className="button" onClick={() => answer(pairing.request?.requestId ?? '', false)}>
              Refuse
            </button>
          </div>
        </div>
      ) : pairing === null || secondsLeft === 0 ? (
        <>
          <p className="settings-note">
            Shows a code, valid for 5 minutes and one device. Open the address on the phone or scan the QR code, then
            confirm here.
          </p>
          <div className="devices-actions">
            <button
              type="button"
              className="button button-primary"
              onClick={() => void start()}
              data-testid="pair-start"
            >
              Pair a device
            </button>
          </div>
        </>
      ) : (
        <div className="devices-offer" data-testid="pair-offer">
          {shown === null ? null : (
            <img
              className="devices-qr"
              alt={`QR code for ${shown.url}`}
              src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(shown.qrSvg)}`}
            />
          )}
          <div className="devices-offer-text">
            <p className="devices-code" data-testid="pair-code">
              {pairing.code}
            </p>
            {shown === null ? null : (
              <p className="settings-note">
                Or open <code>{shown.url}</code>
              </p>
            )}
            <p className="settings-note" aria-live="off">
              Valid for {Math.floor(secondsLeft / 60)}:{String(secondsLeft % 60).padStart(2, '0')} more, for one device.
            </p>
            <button type="button" className="button" onClick={cancel}>
              Cancel
            </button>
          </div>
        </div>
      )}
    </section>
  );
}
