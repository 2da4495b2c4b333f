import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lastWindowClosedAction, loadDesktopPreferences, saveDesktopPreferences } from './tray-keep-alive';

describe('closing the last window', () => {
  it('keeps Cairn in the tray while tasks are scheduled, unless the person chose to quit', () => {
    expect(lastWindowClosedAction({ platform: 'linux', hasScheduledWork: true, quitWhenWindowsClose: false })).toBe(
      'tray',
    );
    expect(lastWindowClosedAction({ platform: 'linux', hasScheduledWork: true, quitWhenWindowsClose: true })).toBe(
      'quit',
    );
    expect(lastWindowClosedAction({ platform: 'win32', hasScheduledWork: false, quitWhenWindowsClose: false })).toBe(
      'quit',
    );
    expect(lastWindowClosedAction({ platform: 'darwin', hasScheduledWork: false, quitWhenWindowsClose: false })).toBe(
      'stay',
    );
  });

  it('remembers the quit-instead preference, defaulting to keep running', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-prefs-'));
    try {
      const file = join(dir, 'prefs.json');
      expect(loadDesktopPreferences(file)).toEqual({ quitWhenWindowsClose: false });
      saveDesktopPreferences(file, { quitWhenWindowsClose: true });
      expect(loadDesktopPreferences(file)).toEqual({ quitWhenWindowsClose: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
