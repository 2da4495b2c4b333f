import { inDesktopApp } from '../platform/desktop-bridge';

/** Whether the keyboard's command key is ⌘ (Apple platforms) rather than Ctrl. */
export function usesCommandKey(): boolean {
  return typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
}

/** "Ctrl+K" or "⌘K", as the platform writes it. */
export function shortcutLabel(key: string): string {
  return usesCommandKey() ? `⌘${key}` : `Ctrl+${key}`;
}

/** The keys of a keyboard event that shortcuts look at. */
export type ShortcutKeys = Pick<KeyboardEvent, 'key' | 'code' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>;

/**
 * New session. The desktop window binds Ctrl/⌘+N; a browser keeps Ctrl+N for a new window and never
 * hands it to the page, so in a browser tab the shortcut is Alt+N (⌥N), which browsers leave alone.
 */
export function newSessionLabel(desktop: boolean = inDesktopApp()): string {
  if (desktop) return shortcutLabel('N');
  return usesCommandKey() ? '⌥N' : 'Alt+N';
}

/** Whether the keys start a new session here: Ctrl/⌘+N anywhere it reaches the page, and Alt+N in a browser. */
export function isNewSessionKey(keys: ShortcutKeys, desktop: boolean = inDesktopApp()): boolean {
  if (keys.shiftKey) return false;
  const commandN = (keys.ctrlKey || keys.metaKey) && !keys.altKey && keys.key.toLowerCase() === 'n';
  // ⌥N types a dead key on a Mac, so the physical key is what counts.
  const altN = !desktop && keys.altKey && !keys.ctrlKey && !keys.metaKey && keys.code === 'KeyN';
  return commandN || altN;
}
