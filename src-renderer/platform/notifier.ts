/** A note to the person outside the window (an OS notification), for things that wait for them. */
export interface DesktopNote {
  readonly title: string;
  readonly body: string;
  /** Called when the person clicks the note. */
  readonly onClick?: () => void;
}

export type Notifier = (note: DesktopNote) => void;

interface NotificationGlobals {
  readonly document: { readonly hidden: boolean; hasFocus(): boolean };
  readonly Notification?: {
    readonly permission: string;
    new (title: string, options: { body: string; tag?: string }): { onclick: ((...args: never[]) => unknown) | null };
  };
  focus(): void;
}

/**
 * Shows an OS notification through the Notification API, only while the window is in the background
 * and only where permission is already granted (asked only from the person's click in Settings).
 * Where the browser refuses to construct one (a phone's: it shows notes only from a service worker),
 * the page's service worker shows it once it runs (`viaWorker`, see page-worker.ts). The desktop app
 * does not use it: its main process notifies.
 */
export function backgroundNotifier(
  window: NotificationGlobals,
  viaWorker: () => Notifier | null = () => null,
): Notifier {
  return (note) => {
    const Notification = window.Notification;
    if (Notification === undefined || Notification.permission !== 'granted') return;
    if (!window.document.hidden && window.document.hasFocus()) return;
    try {
      const shown = new Notification(note.title, { body: note.body, tag: 'cairn-waiting' });
      shown.onclick = () => {
        window.focus();
        note.onClick?.();
      };
    } catch {
      // A phone's browser exposes the API but refuses to construct notifications: the worker, if any, shows it.
      viaWorker()?.(note);
    }
  };
}

/** Whether the window may show notifications: never asked, allowed, refused, or no Notification API at all. */
export type NotificationPermissionState = 'default' | 'granted' | 'denied' | 'unsupported';

/** Reads and asks for the permission to notify (asking only ever from the person's click in Settings). */
export interface NotificationPermissionPort {
  current(): NotificationPermissionState;
  request(): Promise<NotificationPermissionState>;
}

interface PermissionGlobals {
  readonly Notification?: { readonly permission: string; requestPermission(): Promise<string> };
}

export function notificationPermission(window: PermissionGlobals): NotificationPermissionPort {
  const known = (value: string | undefined): NotificationPermissionState =>
    value === 'granted' || value === 'denied' || value === 'default' ? value : 'unsupported';
  return {
    current: () => known(window.Notification?.permission),
    async request() {
      const Notification = window.Notification;
      if (Notification === undefined) return 'unsupported';
      try {
        return known(await Notification.requestPermission());
      } catch {
        return known(Notification.permission);
      }
    },
  };
}
