import { useAppStore, useStoreApi } from '../state/store-context';
import { AlertIcon, BellIcon, CloseIcon } from './icons';

/** Errors from operations, in the host's words, until dismissed or timed out (ui-slice TOAST_MS). */
export function Toasts() {
  const store = useStoreApi();
  const toasts = useAppStore((state) => state.toasts);
  if (toasts.length === 0) return null;
  return (
    <div className="toasts">
      {toasts.map((toast) => (
        <div
          key={toast.id}
          className={`toast toast-${toast.tone}`}
          role={toast.tone === 'error' ? 'alert' : 'status'}
          data-tone={toast.tone}
        >
          {toast.tone === 'error' ? <AlertIcon /> : <BellIcon />}
          <p>{toast.message}</p>
          <button
            type="button"
            className="icon-button"
            aria-label="Dismiss"
            onClick={() => store.getState().dismissToast(toast.id)}
          >
            <CloseIcon />
          </button>
        </div>
      ))}
    </div>
  );
}
