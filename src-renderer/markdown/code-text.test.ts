import type { Element } from 'hast';
import { describe, expect, it } from 'vitest';
import { codeBlockLanguage, codeBlockText, textOf } from './code-text';

function pre(code: Element): Element {
  return { type: 'element', tagName: 'pre', properties: {}, children: [code] };
}

/** What remark + rehype-highlight make of ```ts\nconst a = 1;\n```. */
const highlighted: Element = pre({
  type: 'element',
  tagName: 'code',
  properties: { className: ['hljs', 'language-ts'] },
  children: [
    {
      type: 'element',
      tagName: 'span',
      properties: { className: ['hljs-keyword'] },
      children: [{ type: 'text', value: 'const' }],
    },
    { type: 'text', value: ' a = ' },
    {
      type: 'element',
      tagName: 'span',
      properties: { className: ['hljs-number'] },
      children: [{ type: 'text', value: '1' }],
    },
    { type: 'text', value: ';\n' },
  ],
});

describe('code block text', () => {
  it('copies the code as written, without highlighting markup or the final newline', () => {
    expect(codeBlockText(highlighted)).toBe('const a = 1;');
  });

  it('reads the language from the code element', () => {
    expect(codeBlockLanguage(highlighted)).toBe('ts');
    expect(codeBlockLanguage(pre({ type: 'element', tagName: 'code', properties: {}, children: [] }))).toBeNull();
  });

  it('gives nothing for a missing node and collects nested text', () => {
    expect(codeBlockText(undefined)).toBe('');
    expect(textOf(highlighted)).toBe('const a = 1;\n');
  });
});
