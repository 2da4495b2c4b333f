import { APPEARANCE_KEY, parseAppearance, serializeAppearance, type Appearance } from './appearance';
import type { SliceCreator } from './app-state';
import type { NotificationPermissionState } from '../platform/notifier';

/** Where the notification choice is kept (localStorage in a window): 'on' or 'off'; unset means on once permitted. */
export const NOTIFICATIONS_KEY = 'cairn.notifications';

/** Desktop notifications in a browser tab: whether the host window offers them, the browser's permission, the person's choice. */
export interface NotificationPreference {
  /** False in the desktop app (its main process notifies) and where there is no Notification API. */
  readonly offered: boolean;
  readonly permission: NotificationPermissionState;
  readonly chosen: boolean;
  /** The browser's prompt was closed without an answer when the person turned notifications on: they stay off, and the page says so. */
  readonly dismissed: boolean;
}

/** The person's preferences kept in this window: the appearance and desktop notifications. */
export interface PreferencesSlice {
  readonly appearance: Appearance;
  readonly notifications: NotificationPreference;
  setAppearance(change: Partial<Appearance>): void;
  /** Turns notifications on (asking the browser's permission the first time; call it from a click) or off. */
  setNotificationsOn(on: boolean): Promise<void>;
}

/** Whether a note may be shown now: offered, permitted, and not turned off. */
export function notificationsOn(preference: NotificationPreference): boolean {
  return preference.offered && preference.permission === 'granted' && preference.chosen;
}

export const createPreferencesSlice: SliceCreator<PreferencesSlice> = (set, get, deps) => {
  const permission = deps.notificationPermission;
  const initialPermission = permission?.current() ?? 'unsupported';
  return {
    appearance: parseAppearance(deps.draftStorage.read(APPEARANCE_KEY)),
    notifications: {
      offered: permission !== undefined && initialPermission !== 'unsupported',
      permission: initialPermission,
      chosen: deps.draftStorage.read(NOTIFICATIONS_KEY) !== 'off',
      dismissed: false,
    },

    setAppearance(change) {
      const appearance = { ...get().appearance, ...change };
      deps.draftStorage.write(APPEARANCE_KEY, serializeAppearance(appearance));
      deps.applyAppearance?.(appearance);
      set({ appearance });
    },

    async setNotificationsOn(on) {
      if (permission === undefined) return;
      deps.draftStorage.write(NOTIFICATIONS_KEY, on ? 'on' : 'off');
      const current = permission.current();
      const asked = on && current === 'default';
      const granted = asked ? await permission.request() : current;
      set((state) => ({
        notifications: {
          ...state.notifications,
          permission: granted,
          chosen: on,
          dismissed: asked && granted === 'default',
        },
      }));
    },
  };
};
