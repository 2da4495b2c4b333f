import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/** The desktop preference kept beside the window state: quit when the last window closes, even with tasks scheduled. */
export const DESKTOP_PREFERENCES_FILE = 'desktop-preferences.json';

export interface DesktopPreferences {
  readonly quitWhenWindowsClose: boolean;
}

export function loadDesktopPreferences(file: string): DesktopPreferences {
  try {
    if (!existsSync(file)) return { quitWhenWindowsClose: false };
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { quitWhenWindowsClose?: unknown };
    return { quitWhenWindowsClose: parsed.quitWhenWindowsClose === true };
  } catch {
    return { quitWhenWindowsClose: false };
  }
}

export function saveDesktopPreferences(file: string, preferences: DesktopPreferences): void {
  writeFileSync(file, JSON.stringify(preferences), 'utf8');
}

/**
 * What closing the last window does: keep Cairn running in the tray/menu bar while tasks (or the daily
 * review) are scheduled — they fire only while the host runs — unless the person chose to quit
 * instead; otherwise quit (macOS apps stay open without windows, as they always do there).
 */
export function lastWindowClosedAction(input: {
  platform: string;
  hasScheduledWork: boolean;
  quitWhenWindowsClose: boolean;
}): 'tray' | 'quit' | 'stay' {
  if (input.hasScheduledWork && !input.quitWhenWindowsClose) return 'tray';
  return input.platform === 'darwin' ? 'stay' : 'quit';
}
