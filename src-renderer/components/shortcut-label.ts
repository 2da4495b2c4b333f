/** Whether the keyboard's command key is ⌘ (Apple platforms) rather than Ctrl. */
export function usesCommandKey(): boolean {
  return typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
}

/** "Ctrl+K" or "⌘K", as the platform writes it. */
export function shortcutLabel(key: string): string {
  return usesCommandKey() ? `⌘${key}` : `Ctrl+${key}`;
}
