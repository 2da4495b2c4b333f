/**
 * A message's Markdown cut into top-level blocks that parse the same apart as together, so that a
 * streaming message re-parses only its last block: parsing is linear in the text, and re-parsing a
 * whole 5,000-character answer on every delta costs tens of milliseconds a frame.
 *
 * A cut is made only at a blank line outside a fenced code block, before a line that cannot continue
 * what came before it: not indented (an indented line may be a list item's next paragraph or indented
 * code) and not a list item (a loose list stays one list). Text with a link reference
 * or footnote definition is not cut at all: a definition applies to the whole message.
 */
export function markdownBlocks(text: string): string[] {
  if (DEFINITION.test(text)) return [text];
  const blocks: string[] = [];
  let current: string[] = [];
  let blanks: string[] = [];
  let fence: { readonly marker: string; readonly length: number } | null = null;
  for (const line of text.split('\n')) {
    if (fence !== null) {
      current.push(line);
      if (closesFence(line, fence)) fence = null;
      continue;
    }
    if (BLANK.test(line)) {
      if (current.length > 0) blanks.push(line);
      continue;
    }
    if (blanks.length > 0 && startsBlock(line)) {
      blocks.push(ownCopy(current.join('\n')));
      current = [];
    } else {
      current.push(...blanks);
    }
    blanks = [];
    current.push(line);
    fence = opensFence(line);
  }
  if (current.length > 0) blocks.push(ownCopy([...current, ...blanks].join('\n')));
  return blocks.length === 0 ? [text] : blocks;
}

/**
 * `block` as a string of its own. A substring (a line of `text.split`) may be a view into the string it
 * was cut from (V8's sliced string), and a block rendered once stays in its memoised render while the
 * message streams on: each block would keep the whole message as it was when that block first appeared,
 * some 200 versions of a long answer (megabytes per answer, found by the endurance benchmark's page
 * heaps). Cutting a concatenation makes V8 copy the characters: the view is then into that copy only.
 */
function ownCopy(block: string): string {
  return ` ${block}`.slice(1);
}

const BLANK = /^[ \t]*$/;
/** `[label]: destination` or `[^note]: text`, up to three spaces in. */
const DEFINITION = /^ {0,3}\[[^\]\n]+\]:/m;
const LIST_ITEM = /^([*+-]|\d{1,9}[.)])([ \t]|$)/;

function startsBlock(line: string): boolean {
  return !/^[ \t]/.test(line) && !LIST_ITEM.test(line);
}

function opensFence(line: string): { marker: string; length: number } | null {
  const match = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
  if (match === null) return null;
  const [, run = '', info = ''] = match;
  // A backtick fence's info string has no backtick (```a``` is inline code).
  if (run.startsWith('`') && info.includes('`')) return null;
  return { marker: run.charAt(0), length: run.length };
}

function closesFence(line: string, fence: { readonly marker: string; readonly length: number }): boolean {
  const match = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line);
  return match !== null && match[1]?.charAt(0) === fence.marker && (match[1]?.length ?? 0) >= fence.length;
}
