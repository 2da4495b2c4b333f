/** How the app looks: the colour theme and the text size, the person's choice kept in the window's storage. */
export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];
export const TEXT_SIZES = ['small', 'default', 'large'] as const;
export type TextSize = (typeof TEXT_SIZES)[number];

export interface Appearance {
  readonly theme: Theme;
  readonly textSize: TextSize;
}

export const DEFAULT_APPEARANCE: Appearance = { theme: 'system', textSize: 'default' };

/**
 * Where the choice is kept (localStorage in a window). `public/appearance-boot.js` reads the same key
 * before the first paint, so the page never flashes the other theme; keep the two in step.
 */
export const APPEARANCE_KEY = 'cairn.appearance';

/** The stored choice, anything unknown falling back to the default. */
export function parseAppearance(stored: string | null): Appearance {
  if (stored === null) return DEFAULT_APPEARANCE;
  try {
    const value: unknown = JSON.parse(stored);
    if (typeof value !== 'object' || value === null) return DEFAULT_APPEARANCE;
    const { theme, textSize } = value as Record<string, unknown>;
    return {
      theme: THEMES.find((known) => known === theme) ?? DEFAULT_APPEARANCE.theme,
      textSize: TEXT_SIZES.find((known) => known === textSize) ?? DEFAULT_APPEARANCE.textSize,
    };
  } catch {
    return DEFAULT_APPEARANCE;
  }
}

export function serializeAppearance(appearance: Appearance): string {
  return JSON.stringify({ theme: appearance.theme, textSize: appearance.textSize });
}
