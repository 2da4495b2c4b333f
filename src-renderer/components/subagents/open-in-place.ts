import type { MouseEvent } from 'react';

/** The tool through which an agent starts a child agent (its call shows as a SpawnCard). */
export const SPAWN_TOOL = 'spawn_agent';

/** Opens a session in place on a plain click; a modified click keeps the browser's own meaning (a new tab). */
export function openInPlace(event: MouseEvent<HTMLAnchorElement>, open: () => void): void {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  open();
}
