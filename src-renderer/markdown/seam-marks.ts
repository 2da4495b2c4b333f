/**
 * Where a resumed run's text starts inside an answer shown whole: a private-use character marks each
 * seam in the text handed to the Markdown renderer (the k-th seam is U+E000 + k), and the rehype
 * plugin in resume-seams.ts (loaded with the renderer) turns it into an empty
 * `<span data-resume-seam="k">` at that very place — inside a paragraph or a code block alike — for
 * the renderer to draw the marker. The answer's own text (copy, export, search) never holds the
 * character.
 */
export const SEAM_BASE = 0xe000;
const MAX_SEAMS = 0x100;
/** One seam character. */
export const SEAM = /[\uE000-\uE0FF]/;

/** `text` with a seam character at each offset (ascending, as many as MAX_SEAMS). */
export function markSeams(text: string, offsets: readonly number[]): string {
  let marked = '';
  let from = 0;
  offsets.slice(0, MAX_SEAMS).forEach((offset, index) => {
    const at = Math.max(from, Math.min(offset, text.length));
    marked += text.slice(from, at) + String.fromCharCode(SEAM_BASE + index);
    from = at;
  });
  return marked + text.slice(from);
}

/** The text without its seam characters (what shows while the renderer loads). */
export function unmarkSeams(text: string): string {
  return text.replace(/[\uE000-\uE0FF]/g, '');
}
