import { useEffect, useRef } from 'react';
import { useAppStore, useStoreApi } from '../state/store-context';
import { useDrawerFocusTrap } from './drawer-focus-trap';

/** What a tap in the drawer picks: a session, something waiting, the WorkHub or Automations. */
const PICKS = '.sidebar .session-row-main, .sidebar .waiting-item, .sidebar .workhub-entry';

/**
 * Beside a phone's sidebar, which is a drawer over the page (phone.css): a dimmed backdrop that closes
 * it when tapped, as Esc does, and as picking something in it does — a session, the WorkHub,
 * Automations, or something waiting — so that one view at a time fills the screen. While it is open,
 * Tab stays in the drawer, and closing it gives focus back to the button that opened it.
 */
export function SidebarDrawerBackdrop() {
  const store = useStoreApi();
  const view = useAppStore(
    (state) => `${state.selectedSessionId ?? ''}|${String(state.automations.open)}|${state.focusInteractionId ?? ''}`,
  );
  const openedOn = useRef(view);
  useDrawerFocusTrap();

  useEffect(() => {
    if (view !== openedOn.current) store.getState().setSidebarShown(false);
  }, [view, store]);

  useEffect(() => {
    // Picking what is already open changes no view: a tap on a session, something waiting, the WorkHub
    // or Automations closes the drawer all the same (after the pick itself has run).
    const onClick = (event: MouseEvent) => {
      if (event.target instanceof Element && event.target.closest(PICKS) !== null)
        store.getState().setSidebarShown(false);
    };
    document.addEventListener('click', onClick);
    return () => document.removeEventListener('click', onClick);
  }, [store]);

  useEffect(() => {
    // Before the app's own Esc (which would stop a running turn); a search being cleared keeps its Esc.
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || (event.target instanceof HTMLInputElement && event.target.value !== '')) return;
      event.stopPropagation();
      store.getState().setSidebarShown(false);
    };
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, [store]);

  return (
    <button
      type="button"
      className="sidebar-drawer-backdrop"
      data-testid="sidebar-drawer-backdrop"
      aria-label="Close the session list"
      tabIndex={-1}
      onClick={() => store.getState().setSidebarShown(false)}
    />
  );
}
