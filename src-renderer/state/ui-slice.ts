import type { OperationError } from '../../src-shared/errors';
import { parseSidebarChoice, SIDEBAR_CHOICE_KEY, type SidebarChoice } from './sidebar-layout';
import type { SliceCreator } from './app-state';

export interface Toast {
  readonly id: number;
  readonly message: string;
  /** `error`: something went wrong; `info`: news the person asked for (an automation finished). */
  readonly tone: 'error' | 'info';
}

const MAX_TOASTS = 4;
/** How long a toast stays before it goes by itself (it can be dismissed sooner). */
export const TOAST_MS = 8000;

/** Which connection Settings shows: one by id, the add form, or the first one. */
export type SettingsPage =
  | { readonly tab: 'connections'; readonly connectionId: string | 'new' | null }
  | { readonly tab: 'usage' }
  | { readonly tab: 'memory' }
  | { readonly tab: 'mcp' }
  | { readonly tab: 'instructions' }
  | { readonly tab: 'sandbox' }
  | { readonly tab: 'hooks' }
  | { readonly tab: 'general' }
  | { readonly tab: 'devices' }
  | { readonly tab: 'storage' }
  | { readonly tab: 'editor' };

/** The goal dialogs: set a goal, edit its limits, or confirm clearing it. */
export interface GoalDialog {
  readonly sessionId: string;
  readonly mode: 'arm' | 'limits' | 'clear';
}

/** What is open on screen beyond the record itself: dialogs, panels, inline rename, toasts. */
export interface UiSlice {
  readonly helpOpen: boolean;
  /** Settings, when open, and the page it shows. */
  readonly settings: SettingsPage | null;
  readonly goalDialog: GoalDialog | null;
  /** The session the delete confirmation asks about. */
  readonly pendingDeleteId: string | null;
  /** The session whose title is being edited in the sidebar. */
  readonly renamingId: string | null;
  readonly toasts: readonly Toast[];
  /** Whether the person chose to show or hide the sidebar (remembered across reloads); null: the window's width decides. */
  readonly sidebarChoice: SidebarChoice;
  setSidebarShown(shown: boolean): void;
  setHelpOpen(open: boolean): void;
  openSettings(page?: SettingsPage): void;
  closeSettings(): void;
  setGoalDialog(dialog: GoalDialog | null): void;
  askToDelete(sessionId: string | null): void;
  setRenaming(sessionId: string | null): void;
  /** Shows a message as an error toast, dismissible, gone by itself after TOAST_MS. */
  showError(message: string): void;
  /** A toast that reports news, not a failure. */
  showInfo(message: string): void;
  /**
   * Shows an operation's failure (the host's message, written for people) — unless the link to
   * the host is down for good, which the connection banner already explains.
   */
  reportFailure(error: OperationError): void;
  dismissToast(id: number): void;
}

export const createUiSlice: SliceCreator<UiSlice> = (set, get, deps) => {
  let nextToastId = 1;
  const showToast = (message: string, tone: Toast['tone']) => {
    if (get().toasts.some((toast) => toast.message === message)) return;
    const id = nextToastId++;
    set((state) => ({ toasts: [...state.toasts, { id, message, tone }].slice(-MAX_TOASTS) }));
    deps.timers.setTimeout(() => dismissToast(id), TOAST_MS);
  };
  const dismissToast = (id: number) =>
    set((state) =>
      state.toasts.some((toast) => toast.id === id)
        ? { toasts: state.toasts.filter((toast) => toast.id !== id) }
        : state,
    );
  return {
    helpOpen: false,
    settings: null,
    goalDialog: null,
    pendingDeleteId: null,
    renamingId: null,
    toasts: [],
    sidebarChoice: parseSidebarChoice(deps.draftStorage.read(SIDEBAR_CHOICE_KEY)),
    setSidebarShown: (shown) => {
      const sidebarChoice = shown ? 'shown' : 'hidden';
      deps.draftStorage.write(SIDEBAR_CHOICE_KEY, sidebarChoice);
      set({ sidebarChoice });
    },
    setHelpOpen: (helpOpen) => set({ helpOpen }),
    openSettings: (page = { tab: 'connections', connectionId: null }) => set({ settings: page, helpOpen: false }),
    closeSettings: () => set({ settings: null }),
    setGoalDialog: (goalDialog) => set({ goalDialog }),
    askToDelete: (pendingDeleteId) => set({ pendingDeleteId }),
    setRenaming: (renamingId) => set({ renamingId }),
    showError: (message) => showToast(message, 'error'),
    showInfo: (message) => showToast(message, 'info'),
    reportFailure: (error) => {
      if (error.code === 'operation_unavailable' && get().connection.status === 'failed') return;
      get().showError(error.message);
    },
    dismissToast,
  };
};
