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
        .replace(/\[([^\]]+)\]\(([^)]*)\)/g, (_match, label: string, target: string) => (target === '' || target === label ? label : `${label} (${target})`))
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
