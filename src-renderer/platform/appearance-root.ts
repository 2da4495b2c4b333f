import type { Appearance } from '../state/appearance';

/** Applies a theme and text size to the page at once (theme.css reads these attributes on <html>). */
export function appearanceRoot(document: {
  readonly documentElement: { setAttribute(name: string, value: string): void };
}): (appearance: Appearance) => void {
  return (appearance) => {
    document.documentElement.setAttribute('data-theme', appearance.theme);
    document.documentElement.setAttribute('data-text-size', appearance.textSize);
  };
}
