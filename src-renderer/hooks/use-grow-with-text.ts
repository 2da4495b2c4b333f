import { useLayoutEffect, type RefObject } from 'react';

/**
 * Whether the browser sizes a textarea to its text itself: CSS `field-sizing: content` (Chromium 123+,
 * so the desktop app and Chromium-based browsers; not yet every other browser).
 */
const SIZED_BY_CSS = typeof CSS !== 'undefined' && CSS.supports('field-sizing', 'content');

/**
 * A message box grows with its text up to its CSS `max-height`, then scrolls (styles/composer.css).
 * Where CSS does it (`field-sizing: content`), nothing runs on a keystroke: measuring here meant
 * writing the height and reading `scrollHeight` back, a forced layout of the whole page on every key
 * while a session streamed beside it. Elsewhere it is measured that way after each change of the text.
 */
export function useGrowWithText(ref: RefObject<HTMLTextAreaElement | null>, text: string): void {
  useLayoutEffect(() => {
    const input = ref.current;
    if (SIZED_BY_CSS || input === null) return;
    input.style.height = 'auto';
    input.style.height = `${input.scrollHeight}px`;
  }, [ref, text]);
}
