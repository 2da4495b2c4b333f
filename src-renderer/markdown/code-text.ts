import type { Element, ElementContent } from 'hast';

/** The plain text of a hast node and its descendants (what a code block's Copy button copies). */
export function textOf(node: ElementContent | Element): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element') return node.children.map(textOf).join('');
  return '';
}

/** The `<code>` inside a `<pre>`, if there is one. */
function codeChild(pre: Element): Element | undefined {
  return pre.children.find((child): child is Element => child.type === 'element' && child.tagName === 'code');
}

/** The code of a fenced block as written (without the trailing newline markdown adds). */
export function codeBlockText(pre: Element | undefined): string {
  if (pre === undefined) return '';
  const code = codeChild(pre) ?? pre;
  return textOf(code).replace(/\n$/, '');
}

/** The fence's language (```ts → "ts"), from the `language-…` class remark gives the code element. */
export function codeBlockLanguage(pre: Element | undefined): string | null {
  const code = pre === undefined ? undefined : codeChild(pre);
  const className: unknown = code?.properties.className;
  const classes: string[] = Array.isArray(className)
    ? className.map(String)
    : typeof className === 'string'
      ? className.split(/\s+/)
      : [];
  const language = classes.find((name) => name.startsWith('language-'));
  return language === undefined ? null : language.slice('language-'.length);
}
