import { SIDEBAR_DEFAULT_MIN_WIDTH, sidebarShown } from '../state/sidebar-layout';
import { useAppStore } from '../state/store-context';
import { useMediaQuery } from './use-media-query';

/** Whether the sidebar shows now: the person's remembered choice, or the window's width until they make one. */
export function useSidebarShown(): boolean {
  const choice = useAppStore((state) => state.sidebarChoice);
  const wide = useMediaQuery(`(min-width: ${SIDEBAR_DEFAULT_MIN_WIDTH}px)`);
  return sidebarShown(choice, wide ? SIDEBAR_DEFAULT_MIN_WIDTH : 0);
}
