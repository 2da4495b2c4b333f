/** Whether the sidebar shows: the person's remembered choice, or by default only in a window this wide or wider. */
export const SIDEBAR_DEFAULT_MIN_WIDTH = 1000;

/** The person's own choice, once made (Hide sidebar / Show sidebar, or the shortcut); null until then. */
export type SidebarChoice = 'shown' | 'hidden' | null;

export function sidebarShown(choice: SidebarChoice, windowWidth: number): boolean {
  return choice === null ? windowWidth >= SIDEBAR_DEFAULT_MIN_WIDTH : choice === 'shown';
}

/** Where the choice is kept (localStorage in a window). */
export const SIDEBAR_CHOICE_KEY = 'cairn.sidebar';

export function parseSidebarChoice(stored: string | null): SidebarChoice {
  return stored === 'shown' || stored === 'hidden' ? stored : null;
}

/** The shortcut that shows or hides the sidebar (Ctrl/⌘+Shift+S), as help shows it. */
export const TOGGLE_SIDEBAR_KEY = 'S';

/** Up to this width the window is laid out for a phone: the sidebar becomes a drawer over the page, the rail a bar on top. */
export const PHONE_MAX_WIDTH = 640;
export const PHONE_QUERY = `(max-width: ${PHONE_MAX_WIDTH}px)`;
