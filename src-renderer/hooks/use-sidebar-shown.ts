import { useSyncExternalStore } from 'react';
import { SIDEBAR_DEFAULT_MIN_WIDTH, sidebarShown } from '../state/sidebar-layout';
import { useAppStore } from '../state/store-context';

const WIDE_QUERY = `(min-width: ${SIDEBAR_DEFAULT_MIN_WIDTH}px)`;

function subscribeToWidth(onChange: () => void): () => void {
  const query = window.matchMedia(WIDE_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/** Whether the sidebar shows now: the person's remembered choice, or the window's width until they make one. */
export function useSidebarShown(): boolean {
  const choice = useAppStore((state) => state.sidebarChoice);
  const width = useSyncExternalStore(subscribeToWidth, () => (window.matchMedia(WIDE_QUERY).matches ? SIDEBAR_DEFAULT_MIN_WIDTH : 0));
  return sidebarShown(choice, width);
}
