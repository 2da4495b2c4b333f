import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  captureWindowState,
  DEFAULT_WINDOW_SIZE,
  initialBounds,
  isVisibleOn,
  loadWindowState,
  MIN_WINDOW_SIZE,
  parseWindowState,
  saveWindowState,
  WINDOW_STATE_FILE,
  type WindowState,
} from './window-state';

const LAPTOP = { x: 0, y: 0, width: 1920, height: 1080 };
const RIGHT_MONITOR = { x: 1920, y: 0, width: 2560, height: 1440 };
const saved = (x: number, y: number, width = 1000, height = 700, maximized = false): WindowState => ({
  bounds: { x, y, width, height },
  maximized,
});

describe('parseWindowState', () => {
  it('reads a well-formed state', () => {
    expect(parseWindowState({ version: 1, x: 10, y: 20, width: 1000, height: 700, maximized: true })).toEqual(
      saved(10, 20, 1000, 700, true),
    );
  });

  it('rejects anything malformed', () => {
    const good = { version: 1, x: 10, y: 20, width: 1000, height: 700, maximized: false };
    const bad: unknown[] = [
      null,
      'x',
      [],
      { ...good, version: 2 },
      { ...good, x: 1.5 },
      { ...good, y: '20' },
      { ...good, width: 0 },
      { ...good, height: -5 },
      { ...good, width: 1e9 },
      { ...good, x: Number.NaN },
      { ...good, maximized: 'yes' },
      { version: 1, width: 1000, height: 700, maximized: false },
    ];
    for (const value of bad) expect(parseWindowState(value)).toBeNull();
  });
});

describe('isVisibleOn', () => {
  it('accepts a window on either display', () => {
    expect(isVisibleOn({ x: 100, y: 100, width: 800, height: 600 }, [LAPTOP, RIGHT_MONITOR])).toBe(true);
    expect(isVisibleOn({ x: 2500, y: 200, width: 800, height: 600 }, [LAPTOP, RIGHT_MONITOR])).toBe(true);
  });

  it('rejects a window left on a monitor that is no longer connected', () => {
    expect(isVisibleOn({ x: 2500, y: 200, width: 800, height: 600 }, [LAPTOP])).toBe(false);
  });

  it('rejects a window whose title bar is above the display or that barely peeks in', () => {
    expect(isVisibleOn({ x: 100, y: -300, width: 800, height: 600 }, [LAPTOP])).toBe(false);
    expect(isVisibleOn({ x: -790, y: 100, width: 800, height: 600 }, [LAPTOP])).toBe(false);
    expect(isVisibleOn({ x: 100, y: 1060, width: 800, height: 600 }, [LAPTOP])).toBe(false);
  });
});

describe('initialBounds', () => {
  it('opens at the default size, centred, the first time', () => {
    expect(initialBounds(null, [LAPTOP])).toEqual({ ...DEFAULT_WINDOW_SIZE, maximized: false });
  });

  it('restores a visible position and size', () => {
    expect(initialBounds(saved(50, 60, 1000, 700, true), [LAPTOP])).toEqual({
      x: 50,
      y: 60,
      width: 1000,
      height: 700,
      maximized: true,
    });
  });

  it('drops an off-screen position but keeps the size', () => {
    expect(initialBounds(saved(5000, 5000), [LAPTOP])).toEqual({ width: 1000, height: 700, maximized: false });
  });

  it('clamps the size to the minimum and to the largest display', () => {
    expect(initialBounds(saved(0, 0, 100, 100), [LAPTOP])).toMatchObject({
      width: MIN_WINDOW_SIZE.width,
      height: MIN_WINDOW_SIZE.height,
    });
    expect(initialBounds(saved(0, 0, 9000, 9000), [LAPTOP])).toMatchObject({ width: 1920, height: 1080 });
  });
});

describe('loading and saving', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cairn-window-state-'));
    file = join(dir, 'profile', WINDOW_STATE_FILE);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('round-trips through the file, leaving no temporary file behind', () => {
    saveWindowState(file, saved(10, 20, 1100, 750, true));
    expect(loadWindowState(file)).toEqual(saved(10, 20, 1100, 750, true));
    expect(readdirSync(join(dir, 'profile'))).toEqual([WINDOW_STATE_FILE]);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      version: 1,
      x: 10,
      y: 20,
      width: 1100,
      height: 750,
      maximized: true,
    });
  });

  it('reads a missing, corrupt or malformed file as no state', () => {
    expect(loadWindowState(file)).toBeNull();
    saveWindowState(file, saved(1, 2));
    writeFileSync(file, '{"version":1,"x":');
    expect(loadWindowState(file)).toBeNull();
    writeFileSync(file, JSON.stringify({ version: 1, x: 0, y: 0, width: 'wide', height: 700, maximized: false }));
    expect(loadWindowState(file)).toBeNull();
  });

  it('captures the normal (un-maximized) bounds of a window', () => {
    const window = { getNormalBounds: () => ({ x: 5, y: 6, width: 900, height: 650 }), isMaximized: () => true };
    expect(captureWindowState(window)).toEqual(saved(5, 6, 900, 650, true));
  });
});
