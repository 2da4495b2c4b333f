export const DEFAULT_SESSION_TITLE = 'New session';
const MAX_AUTO_TITLE = 60;

/** A title from the first user message: its first line, whitespace collapsed, cut at a word. */
export function titleFromMessage(text: string): string | null {
  const firstLine = text
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .find((line) => line !== '');
  if (firstLine === undefined) return null;
  if (firstLine.length <= MAX_AUTO_TITLE) return firstLine;
  const cut = firstLine.slice(0, MAX_AUTO_TITLE);
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > 30 ? cut.slice(0, lastSpace) : cut).trimEnd()}…`;
}
