export const DEFAULT_SESSION_TITLE = 'New session';
const MAX_AUTO_TITLE = 60;

/**
 * A title from the first user message: its first line, whitespace collapsed, cut at a word. A
 * directive (`/tool read_file {...}`, `/stream 30 40`) never becomes a title as typed: it is named
 * by what it does, with any words after its arguments.
 */
export function titleFromMessage(text: string): string | null {
  const typed = text
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .find((line) => line !== '');
  if (typed === undefined) return null;
  const firstLine = directiveTitle(typed) ?? typed;
  if (firstLine.length <= MAX_AUTO_TITLE) return firstLine;
  const cut = firstLine.slice(0, MAX_AUTO_TITLE);
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > 30 ? cut.slice(0, lastSpace) : cut).trimEnd()}…`;
}

/** What a directive line is titled: "Tool call: read_file", the words after its arguments, or "Offline demo: stream". */
function directiveTitle(line: string): string | null {
  const match = /^\/([a-z][a-z-]*)\b\s*(.*)$/i.exec(line);
  if (match === null) return null;
  const name = (match[1] ?? '').toLowerCase();
  const rest = match[2] ?? '';
  if (name === 'tool') {
    const tool = /^([A-Za-z0-9_.:-]+)/.exec(rest)?.[1];
    return tool === undefined ? 'Tool call' : `Tool call: ${tool}`;
  }
  const words = rest
    .replace(/[{[].*$/, '')
    .replace(/^(\s*-?\d+(\.\d+)?\b)+/, '')
    .trim();
  return words === '' ? `Offline demo: ${name}` : words;
}
