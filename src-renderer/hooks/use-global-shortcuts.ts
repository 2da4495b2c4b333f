import { useEffect } from 'react';
import { FOCUS_COMPOSER_KEY, focusComposer, focusSearch } from '../components/focus-targets';
import type { AppStore } from '../state/app-state';
import { isBusy } from '../state/selectors';
import { WORKHUB_SESSION_ID } from '../../src-shared/workhub-model';
import { isNewSessionKey } from '../components/shortcut-label';
import { sidebarShown, TOGGLE_SIDEBAR_KEY } from '../state/sidebar-layout';

/** Whether keys typed now go into a text field (so "?" is text, not a shortcut). */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  );
}

/**
 * The app-wide keyboard shortcuts: Ctrl/⌘+N (Alt+N in a browser) new session, Ctrl/⌘+K search, Ctrl/⌘+Shift+L the message box, Ctrl/⌘+Shift+S shows or hides the sidebar, Ctrl/⌘+, Settings, Esc stops the running
 * turn (or closes what is open: help, Settings, a goal dialog), ? or Ctrl+/ toggles the help panel.
 */
export function useGlobalShortcuts(store: AppStore): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      const state = store.getState();
      const modifier = event.ctrlKey || event.metaKey;
      const key = event.key.toLowerCase();

      if (isNewSessionKey(event)) {
        event.preventDefault();
        void state.createSession();
      } else if (modifier && !event.altKey && !event.shiftKey && event.key === ',') {
        event.preventDefault();
        if (state.settings === null) state.openSettings();
        else state.closeSettings();
      } else if (modifier && event.shiftKey && !event.altKey && key === FOCUS_COMPOSER_KEY.toLowerCase()) {
        event.preventDefault();
        // With no session open there is no message box: start a session, whose box takes the keys typed next.
        if (state.selectedSessionId === null) void state.createSession();
        else focusComposer();
      } else if (modifier && event.shiftKey && !event.altKey && key === TOGGLE_SIDEBAR_KEY.toLowerCase()) {
        event.preventDefault();
        state.setSidebarShown(!sidebarShown(state.sidebarChoice, window.innerWidth));
      } else if (modifier && !event.altKey && key === 'k') {
        event.preventDefault();
        // Search lives in the sidebar: a hidden one opens for it.
        if (sidebarShown(state.sidebarChoice, window.innerWidth)) focusSearch();
        else {
          state.setSidebarShown(true);
          requestAnimationFrame(focusSearch);
        }
      } else if ((modifier && key === '/') || (event.key === '?' && !modifier && !isTyping(event.target))) {
        event.preventDefault();
        state.setHelpOpen(!state.helpOpen);
      } else if (event.key === 'Escape') {
        if (state.helpOpen) state.setHelpOpen(false);
        else if (state.settings !== null) state.closeSettings();
        else if (state.goalDialog !== null) state.setGoalDialog(null);
        else if (state.pendingDeleteId !== null) state.askToDelete(null);
        // Esc stops the running turn — not the WorkHub's pending "where should this go?" form.
        else if (
          state.selectedSessionId !== null &&
          state.selectedSessionId !== WORKHUB_SESSION_ID &&
          isBusy(state.sessions.byId[state.selectedSessionId]?.activity)
        ) {
          event.preventDefault();
          void state.stopTurn(state.selectedSessionId);
        }
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [store]);
}
