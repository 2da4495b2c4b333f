import type { KeyboardEvent } from 'react';

/** Rows: each session, and the disclosures of a root's child agents and of a session's branches. */
const ROW = '.session-row-main, .agent-disclosure, .branch-disclosure';
/** A row's own actions (not those of rows nested inside it). */
const ACTION = ':scope > .session-row-actions button';

/**
 * Arrow keys in the session list (one Tab stop, the roving-tabindex pattern): Up/Down/Home/End move
 * between sessions (and the disclosures of their child agents), Right and Left move between a session
 * and its Rename/Archive/Delete buttons.
 */
export function onSessionListKeyDown(event: KeyboardEvent<HTMLElement>): void {
  const list = event.currentTarget;
  const focused = document.activeElement;
  if (!(focused instanceof HTMLElement) || !list.contains(focused) || focused instanceof HTMLInputElement) return;
  const rows = [...list.querySelectorAll<HTMLElement>(ROW)];
  const row = focused.closest('li');
  const rowIndex = rows.includes(focused)
    ? rows.indexOf(focused)
    : rows.findIndex((candidate) => candidate.closest('li') === row);
  const actions = row === null ? [] : [...row.querySelectorAll<HTMLElement>(ACTION)];
  const actionIndex = actions.indexOf(focused);
  let target: HTMLElement | undefined;
  switch (event.key) {
    case 'ArrowDown':
      target = rows[Math.min(rowIndex + 1, rows.length - 1)];
      break;
    case 'ArrowUp':
      target = rows[Math.max(rowIndex - 1, 0)];
      break;
    case 'Home':
      target = rows[0];
      break;
    case 'End':
      target = rows.at(-1);
      break;
    case 'ArrowRight':
      target = actionIndex === -1 ? actions[0] : actions[Math.min(actionIndex + 1, actions.length - 1)];
      break;
    case 'ArrowLeft':
      target = actionIndex <= 0 ? rows[rowIndex] : actions[actionIndex - 1];
      break;
    default:
      return;
  }
  if (target === undefined) return;
  event.preventDefault();
  target.focus();
}
