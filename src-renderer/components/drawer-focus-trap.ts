import { useEffect } from 'react';
import { FOCUSABLE } from './focus-targets';

/**
 * While the phone's drawer (the `.sidebar` over the page) is open: focus moves into it, Tab and
 * Shift+Tab cycle among its controls, and once it closes focus goes back to what opened it (the
 * Show sidebar button) — unless the person has since put it somewhere else that is still there.
 */
export function useDrawerFocusTrap(): void {
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const drawer = () => document.querySelector<HTMLElement>('.sidebar');
    const controls = (root: HTMLElement) =>
      [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((element) => element.getClientRects().length > 0);
    const openedIn = drawer();
    if (openedIn !== null && !openedIn.contains(document.activeElement)) controls(openedIn)[0]?.focus();

    const onKeyDown = (event: KeyboardEvent) => {
      const root = drawer();
      if (event.key !== 'Tab' || root === null) return;
      const focusable = controls(root);
      const first = focusable[0];
      const last = focusable.at(-1);
      if (first === undefined || last === undefined) return;
      const active = document.activeElement;
      const wrapTo = !root.contains(active)
        ? first
        : event.shiftKey && active === first
          ? last
          : !event.shiftKey && active === last
            ? first
            : null;
      if (wrapTo === null) return;
      event.preventDefault();
      wrapTo.focus();
    };
    window.addEventListener('keydown', onKeyDown, true);
    return () => {
      window.removeEventListener('keydown', onKeyDown, true);
      // The drawer is gone by now: focus that was in it fell to the page.
      const active = document.activeElement;
      const lost = active === null || active === document.body || drawer()?.contains(active) === true;
      if (lost && opener?.isConnected === true) opener.focus();
    };
  }, []);
}
