/** Elements that keyboard shortcuts and empty states move focus to. */

/** What Tab can reach inside a dialog or the phone's drawer (each keeps focus among these while open). */
export const FOCUSABLE =
  'button:not([disabled]), [href], input:not([disabled]), textarea:not([disabled]), select, [tabindex]:not([tabindex="-1"])';

export const COMPOSER_INPUT_ID = 'composer-input';
export const SEARCH_INPUT_ID = 'session-search';

/** Puts the cursor in the open session's message box; false when there is none. */
export function focusComposer(): boolean {
  const input = document.getElementById(COMPOSER_INPUT_ID);
  if (input === null) return false;
  input.focus();
  return true;
}

/** The shortcut that puts the cursor in the message box (Ctrl/⌘+Shift+L), as help shows it. */
export const FOCUS_COMPOSER_KEY = 'L';

export function focusSearch(): void {
  const input = document.getElementById(SEARCH_INPUT_ID);
  if (input instanceof HTMLInputElement) {
    input.focus();
    input.select();
  }
}

export const MODEL_PICKER_ID = 'session-model-picker';

export function focusModelPicker(): void {
  document.getElementById(MODEL_PICKER_ID)?.focus();
}
