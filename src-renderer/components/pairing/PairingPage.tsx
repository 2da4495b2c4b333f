import { StrictMode, useId, useRef, useState, type FormEvent } from 'react';
import { createRoot } from 'react-dom/client';
import { defaultDeviceName, pairDevice, pairingCodeFromFragment } from '../../bridge/pair-device';
import { browserSocketFactory } from '../../bridge/websocket-host-link';
import { keepDeviceCredential, takeSignedOutNote } from '../../platform/token-storage';
import '../../styles/devices.css';

type Step =
  | { readonly kind: 'form'; readonly problem: string | null; readonly note?: string }
  | { readonly kind: 'waiting' }
  | { readonly kind: 'paired'; readonly deviceName: string };

/** Shows the pairing page in place of the app: this browser has no token and no device credential yet. */
export function showPairingPage(root: HTMLElement, win: Window): void {
  document.title = 'Pair this device — Cairn';
  createRoot(root).render(
    <StrictMode>
      <PairingPage win={win} />
    </StrictMode>,
  );
}

/**
 * "Pair this device" (docs/remote.md): the code the desktop shows (prefilled from a QR code's
 * `#pair=…`) and a name for this device; then it waits for the desktop to confirm, keeps the
 * credential it receives and opens Cairn with it. Cancel while waiting withdraws the request (the
 * desktop's "Pair <name>?" goes away). A device that was revoked lands here, saying so.
 */
export function PairingPage({ win }: { win: Window }) {
  const [code, setCode] = useState(() => pairingCodeFromFragment(win.location.hash));
  const [name, setName] = useState(() => defaultDeviceName(win.navigator.userAgent));
  const [step, setStep] = useState<Step>(() =>
    takeSignedOutNote(win.sessionStorage)
      ? { kind: 'form', problem: 'This device was signed out on the Cairn host — pair it again.' }
      : { kind: 'form', problem: null },
  );
  const cancel = useRef<AbortController | null>(null);
  const ids = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setStep({ kind: 'waiting' });
    const scheme = win.location.protocol === 'https:' ? 'wss' : 'ws';
    cancel.current = new AbortController();
    const result = await pairDevice({
      url: `${scheme}://${win.location.host}/`,
      code: code.trim(),
      deviceName: name.trim(),
      openSocket: browserSocketFactory(),
      signal: cancel.current.signal,
    });
    cancel.current = null;
    if (!result.ok && 'cancelled' in result) {
      // The code was used up when the host accepted it: the desktop shows a new one.
      setCode('');
      return setStep({
        kind: 'form',
        problem: null,
        note: 'Pairing cancelled. To pair this device, show a new code on the desktop.',
      });
    }
    if (!result.ok) return setStep({ kind: 'form', problem: result.message });
    if (!keepDeviceCredential(win.localStorage, result.credential)) {
      return setStep({
        kind: 'form',
        problem:
          'This browser does not let Cairn keep its sign-in (private mode?). Open this page in a normal window and pair again.',
      });
    }
    setStep({ kind: 'paired', deviceName: result.deviceName });
    // Open Cairn with the credential, without the code in the address.
    win.history.replaceState(null, '', `${win.location.pathname}${win.location.search}`);
    win.location.reload();
  };

  return (
    <main className="pairing-page" data-testid="pairing-page">
      <div className="pairing-card">
        <h1>Pair this device with Cairn</h1>
        {step.kind === 'waiting' ? (
          <>
            <p className="pairing-waiting" role="status" data-testid="pairing-waiting">
              Waiting for the desktop to confirm… Choose <strong>Pair</strong> there when it asks “Pair {name.trim()}?”.
            </p>
            <button type="button" className="button pairing-submit" onClick={() => cancel.current?.abort()}>
              Cancel
            </button>
          </>
        ) : step.kind === 'paired' ? (
          <p role="status">Paired as {step.deviceName}. Opening Cairn…</p>
        ) : (
          <form onSubmit={(event) => void submit(event)} noValidate>
            <p className="settings-note">
              On the computer running Cairn, open Settings → Devices and choose <strong>Pair a device</strong>, then
              enter the code it shows.
            </p>
            {step.note === undefined ? null : (
              <p className="form-notice" role="status" data-testid="pairing-note">
                {step.note}
              </p>
            )}
            {step.problem === null ? null : (
              <p className="form-notice tone-error" role="alert" data-testid="pairing-problem">
                {step.problem}
              </p>
            )}
            <label className="pairing-field" htmlFor={`${ids}-code`}>
              Code
            </label>
            <input
              id={`${ids}-code`}
              className="pairing-input pairing-code"
              value={code}
              onChange={(event) => setCode(event.target.value.toUpperCase())}
              autoComplete="one-time-code"
              autoCapitalize="characters"
              spellCheck={false}
              placeholder="K7QM-3XRP"
              maxLength={32}
              required
            />
            <label className="pairing-field" htmlFor={`${ids}-name`}>
              Name of this device
            </label>
            <input
              id={`${ids}-name`}
              className="pairing-input"
              value={name}
              onChange={(event) => setName(event.target.value)}
              maxLength={60}
              required
            />
            <button
              type="submit"
              className="button button-primary pairing-submit"
              disabled={code.trim() === '' || name.trim() === ''}
            >
              Pair this device
            </button>
            <p className="settings-note">
              On the computer running Cairn itself, open the address it printed when it started (it ends in{' '}
              <code>#token=…</code>) instead.
            </p>
          </form>
        )}
      </div>
    </main>
  );
}
