import type { SnippetPart } from '../../src-shared/chat-model';

/**
 * Markdown as plain text, for "Copy as plain text": the words a reader sees, without the marks
 * (fences, headings, emphasis, link targets, list bullets stay as typed characters are removed).
 */
export function markdownToPlainText(markdown: string): string {
  const out: string[] = [];
  let inFence = false;
  for (const line of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) {
      out.push(line);
      continue;
    }
    out.push(
      line
        .replace(/^\s{0,3}#{1,6}\s+/, '')
        .replace(/^\s{0,3}>\s?/, '')
        .replace(/^(\s*)[*+-]\s+\[( |x|X)\]\s+/, '$1')
        .replace(/^\s{0,3}([-*_])(\s*\1){2,}\s*$/, '')
        .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
        .replace(/\[([^\]]+)\]\(([^)]*)\)/g, (_match, label: string, target: string) =>
          target === '' || target === label ? label : `${label} (${target})`,
        )
        .replace(/`([^`]+)`/g, '$1')
        .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, '$2')
        .replace(/(^|[^\w*])([*_])(?=\S)(.+?)(?<=\S)\2(?=[^\w*]|$)/g, '$1$3')
        .replace(/~~(.+?)~~/g, '$1'),
    );
  }
  return out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const HIT_START = '\u0002';
const HIT_END = '\u0003';

/**
 * A search snippet (a window of a message, its matches marked) as a line of plain text: the Markdown
 * marks go (as in markdownToPlainText, plus those the window cut in half: a lone `**`, a fence, a
 * heading's `#`), lines run on, and the matches stay marked.
 */
export function plainSnippet(parts: readonly SnippetPart[]): SnippetPart[] {
  const marked = parts.map((part) => (part.hit ? `${HIT_START}${part.text}${HIT_END}` : part.text)).join('');
  const plain = markdownToPlainText(marked)
    .replace(/(```|~~~)[\w-]*/g, ' ')
    .replace(/\*\*|__|~~|`/g, '')
    .replace(/(^|\n)\s{0,3}#{1,6}\s+/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
  const result: SnippetPart[] = [];
  for (const [index, text] of plain.split(new RegExp(`[${HIT_START}${HIT_END}]`)).entries()) {
    if (text !== '') result.push({ text, hit: index % 2 === 1 });
  }
  return result;
}
