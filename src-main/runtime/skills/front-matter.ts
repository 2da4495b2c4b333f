import { parse, YAMLParseError } from 'yaml';

/**
 * What a Markdown file's YAML front matter (the block between `---` lines at its very top) holds:
 * `parsed` with the mapping and the text after it, `none` when the file has no front matter, or
 * `invalid` with a reason a person can act on. The caller decides which keys it needs.
 */
export type FrontMatter =
  | { readonly kind: 'parsed'; readonly data: Readonly<Record<string, unknown>>; readonly body: string }
  | { readonly kind: 'none'; readonly body: string }
  | { readonly kind: 'invalid'; readonly reason: string };

const OPENING = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSING = /^---[ \t]*$/m;

/** Reads the front matter of a Markdown document (YAML 1.2, at most 100 aliases, no custom tags). */
export function readFrontMatter(text: string): FrontMatter {
  const opening = OPENING.exec(text);
  if (opening === null) return { kind: 'none', body: text.replace(/^\uFEFF/, '') };
  const rest = text.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (closing === null)
    return { kind: 'invalid', reason: 'The front matter is not closed: add a line with only --- after it.' };
  const yamlText = rest.slice(0, closing.index);
  const body = rest.slice(closing.index + closing[0].length).replace(/^\r?\n/, '');
  let data: unknown;
  try {
    data = parse(yamlText, { prettyErrors: true, maxAliasCount: 100 });
  } catch (error) {
    const detail = error instanceof YAMLParseError ? firstLine(error.message) : String(error);
    return { kind: 'invalid', reason: `The front matter is not valid YAML: ${detail}` };
  }
  if (data === null || data === undefined) return { kind: 'parsed', data: {}, body };
  if (typeof data !== 'object' || Array.isArray(data)) {
    return { kind: 'invalid', reason: 'The front matter must be a set of "key: value" lines.' };
  }
  return { kind: 'parsed', data: data as Record<string, unknown>, body };
}

function firstLine(message: string): string {
  return message.split('\n')[0]?.trim() ?? message;
}
