import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The main window's size and position, remembered between launches in a small JSON file in
 * userData. Whatever is read back is validated: a bad file or a position on a display that is no
 * longer there is dropped, never trusted.
 */

export const WINDOW_STATE_FILE = 'window-state.json';
export const DEFAULT_WINDOW_SIZE = { width: 1200, height: 800 } as const;
export const MIN_WINDOW_SIZE = { width: 640, height: 480 } as const;
const MAX_EXTENT = 16_384;
/** How much of the window, its top edge included, must lie on one display to restore its position. */
const MIN_VISIBLE = { width: 120, height: 60 } as const;

export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface WindowState {
  readonly bounds: Rect;
  readonly maximized: boolean;
}

/** What the window opens with: a position only when it is visibly on a display. */
export interface InitialBounds {
  readonly width: number;
  readonly height: number;
  readonly x?: number;
  readonly y?: number;
  readonly maximized: boolean;
}

/** Decodes the saved file's content; null for anything that is not a well-formed state. */
export function parseWindowState(value: unknown): WindowState | null {
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Record<string, unknown>;
  const { x, y, width, height, maximized } = record;
  if (record.version !== 1) return null;
  if (!isInt(x, -MAX_EXTENT, MAX_EXTENT) || !isInt(y, -MAX_EXTENT, MAX_EXTENT)) return null;
  if (!isInt(width, 1, MAX_EXTENT) || !isInt(height, 1, MAX_EXTENT)) return null;
  if (typeof maximized !== 'boolean') return null;
  return { bounds: { x, y, width, height }, maximized };
}

export function serializeWindowState(state: WindowState): string {
  const { x, y, width, height } = state.bounds;
  return `${JSON.stringify({ version: 1, x, y, width, height, maximized: state.maximized })}\n`;
}

/** Whether enough of `bounds`, its top edge included (where the title bar is), lies on one work area. */
export function isVisibleOn(bounds: Rect, workAreas: readonly Rect[]): boolean {
  return workAreas.some((area) => {
    const overlapWidth = Math.min(bounds.x + bounds.width, area.x + area.width) - Math.max(bounds.x, area.x);
    const overlapHeight = Math.min(bounds.y + bounds.height, area.y + area.height) - Math.max(bounds.y, area.y);
    const topEdgeOnArea = bounds.y >= area.y && bounds.y <= area.y + area.height - MIN_VISIBLE.height;
    return overlapWidth >= MIN_VISIBLE.width && overlapHeight >= MIN_VISIBLE.height && topEdgeOnArea;
  });
}

/**
 * The bounds to open with: the saved size (at least the minimum, at most the largest display) and
 * the saved position only if it is visible on a current display; otherwise Electron centres it.
 */
export function initialBounds(saved: WindowState | null, workAreas: readonly Rect[]): InitialBounds {
  if (saved === null) return { ...DEFAULT_WINDOW_SIZE, maximized: false };
  const widest = Math.max(MIN_WINDOW_SIZE.width, ...workAreas.map((area) => area.width));
  const tallest = Math.max(MIN_WINDOW_SIZE.height, ...workAreas.map((area) => area.height));
  const width = clamp(saved.bounds.width, MIN_WINDOW_SIZE.width, widest);
  const height = clamp(saved.bounds.height, MIN_WINDOW_SIZE.height, tallest);
  const placed = { x: saved.bounds.x, y: saved.bounds.y, width, height };
  return isVisibleOn(placed, workAreas)
    ? { ...placed, maximized: saved.maximized }
    : { width, height, maximized: saved.maximized };
}

/** Reads the saved state; a missing, unreadable or malformed file reads as none. */
export function loadWindowState(file: string): WindowState | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  try {
    return parseWindowState(JSON.parse(text) as unknown);
  } catch {
    return null;
  }
}

/** Writes the state through a temporary file, so a crash mid-write never leaves half a file. */
export function saveWindowState(file: string, state: WindowState): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, serializeWindowState(state));
  renameSync(temporary, file);
}

/** The part of a BrowserWindow the state is read from. */
export interface StatefulWindow {
  getNormalBounds(): Rect;
  isMaximized(): boolean;
}

/** The state to save: the un-maximized bounds, so restoring a maximized window un-maximizes sensibly. */
export function captureWindowState(window: StatefulWindow): WindowState {
  return { bounds: window.getNormalBounds(), maximized: window.isMaximized() };
}

function isInt(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), max);
}
