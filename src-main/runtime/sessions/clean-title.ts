const MAX_TITLE_CHARS = 60;
const MAX_TITLE_WORDS = 8;

/** A label a model echoes from the title prompt's transcript ("Person: …", "Agent: …"). */
const ECHOED_LABEL = /(^|\s)(person|agent|user|assistant|human|ai)\s*:/i;
/** A preamble instead of a title ("Here is a title:", "Sure! …", "Certainly, …"). */
const PREAMBLE = /^(here(?:'s|’s| is| are)\b|sure\b|certainly\b|of course\b|okay\b|ok\b)/i;
/** A title label the model put before its answer. */
const TITLE_LABEL = /^((session|conversation|chat|suggested)\s+)?title\s*:\s*/i;

/**
 * A model's title reply made fit for the sidebar, or null when it is unusable (the caller keeps the
 * title taken from the first message): one line, Markdown and quotes stripped, no "Title:" label
 * or final stop, at most 8 words and about 60 characters. A reply that echoes the prompt's labels
 * ("Person: …") or answers with a preamble ("Here is a title: …") is only kept for what follows
 * the preamble's colon, and refused when that still echoes the prompt.
 */
export function cleanTitle(reply: string): string | null {
  const line = reply
    .split('\n')
    .map((part) => stripMarkdown(part).replace(/\s+/g, ' ').trim())
    .find((part) => part !== '');
  if (line === undefined) return null;
  let title = line.replace(TITLE_LABEL, '');
  if (PREAMBLE.test(title)) {
    const colon = title.indexOf(':');
    if (colon === -1) return null;
    title = title
      .slice(colon + 1)
      .trim()
      .replace(TITLE_LABEL, '');
  }
  if (ECHOED_LABEL.test(title)) return null;
  title = unquote(title)
    .replace(/[.。!?;:,…]+$/, '')
    .trim();
  if (title === '' || title.startsWith('/') || !/[\p{L}\p{N}]/u.test(title)) return null;
  return capped(title);
}

/** Inline Markdown removed: headings, list markers, emphasis, code ticks, links and images to their text. */
function stripMarkdown(text: string): string {
  return text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s*(#{1,6}\s+|>\s*|[-*+]\s+|\d+[.)]\s+)/, '')
    .replace(/(\*\*|__|~~|`+)/g, '')
    .replace(/(^|[\s(])[*_]([^*_\s][^*_]*?)[*_](?=$|[\s).,:;!?])/g, '$1$2');
}

function unquote(text: string): string {
  return text.replace(/^["'“”‘’«»„`]+|["'“”‘’«»`]+$/g, '').trim();
}

function capped(title: string): string {
  const words = title.split(' ');
  const fewer = words.length > MAX_TITLE_WORDS ? words.slice(0, MAX_TITLE_WORDS).join(' ') : title;
  const cutWords = fewer !== title;
  if (fewer.length <= MAX_TITLE_CHARS) return cutWords ? `${fewer.replace(/[.,;:!?]+$/, '')}…` : fewer;
  const cut = fewer.slice(0, MAX_TITLE_CHARS);
  const space = cut.lastIndexOf(' ');
  return `${(space > 20 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
