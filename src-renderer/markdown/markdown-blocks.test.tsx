import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { Markdown, MarkdownBlock } from '../components/Markdown';
import { markdownBlocks } from './markdown-blocks';
import { loadHighlighting } from './markdown-options';

/** Markdown that tries every way a block can reach past a blank line. */
const DOCUMENT = [
  'Setext heading',
  '==============',
  '',
  '# A heading with `code`',
  '',
  'A paragraph with **bold**, _emphasis_, a [link](https://example.com) and https://example.org.',
  'Its second line.',
  '',
  '- tight item',
  '- another',
  '',
  '',
  '- now loose',
  '',
  '  a second paragraph in the item',
  '',
  '  ```sh',
  '  npm test',
  '',
  '  npm start',
  '  ```',
  '- last item',
  '   1. nested',
  '',
  '   2. nested loose',
  '',
  '3. ordered from three',
  '4. four',
  '',
  '> a quote',
  '>',
  '> its second paragraph',
  '',
  '> a second quote',
  'lazily continued',
  '',
  '````md',
  '```ts',
  '',
  'const inner = 1;',
  '```',
  '',
  '````',
  '',
  '~~~',
  'tilde fence',
  '',
  '```',
  '~~~',
  '',
  '    indented code',
  '',
  '    more indented code',
  '',
  '| a | b |',
  '|---|---|',
  '| 1 | 2 |',
  '',
  '- [x] done',
  '- [ ] not yet',
  '',
  '***',
  '',
  'Inline ```not a fence``` here.',
  '',
  '<div>raw html is dropped</div>',
  '',
  'The end.',
  '',
].join('\n');

const same = (text: string) =>
  expect(renderToStaticMarkup(<Markdown text={text} />)).toBe(renderToStaticMarkup(<MarkdownBlock text={text} />));

describe('markdownBlocks', () => {
  beforeAll(() => loadHighlighting());

  it('cuts at blank lines between blocks, and keeps lists, fences and indented code whole', () => {
    const blocks = markdownBlocks(DOCUMENT);
    expect(blocks.map((block) => block.split('\n')[0])).toEqual([
      'Setext heading',
      '# A heading with `code`',
      'A paragraph with **bold**, _emphasis_, a [link](https://example.com) and https://example.org.',
      '> a quote',
      '> a second quote',
      '````md',
      '~~~',
      '| a | b |',
      '***',
      'Inline ```not a fence``` here.',
      '<div>raw html is dropped</div>',
      'The end.',
    ]);
    expect(blocks).toContain('````md\n```ts\n\nconst inner = 1;\n```\n\n````');
    expect(blocks).toContain('~~~\ntilde fence\n\n```\n~~~\n\n    indented code\n\n    more indented code');
    // The lists stay with the paragraph before them: a list item never starts a block.
    expect(blocks[2]).toContain(
      '\n\n- now loose\n\n  a second paragraph in the item\n\n  ```sh\n  npm test\n\n  npm start\n  ```',
    );
    expect(blocks[2]).toContain('\n\n3. ordered from three');
  });

  it('renders every prefix of a document as parsing it whole does (a message as it streams)', () => {
    for (let end = 0; end <= DOCUMENT.length; end += 1) {
      if (end % 13 === 0 || DOCUMENT[end] === '\n') same(DOCUMENT.slice(0, end));
    }
  }, 60_000);

  it('does not cut text with a link reference or footnote definition, which apply to the whole message', () => {
    for (const text of [
      'See [the docs][docs].\n\nMore.\n\n[docs]: https://example.com',
      'A claim.[^1]\n\nMore.\n\n[^1]: The source.',
    ]) {
      expect(markdownBlocks(text)).toEqual([text]);
      same(text);
    }
  });

  it('leaves the blocks before the last unchanged as a message grows, so only the last is parsed again', () => {
    const parts = [
      '# Part 1',
      'Some text with `code`.',
      '```ts\nconst a = 1;\n\nconst b = 2;\n```',
      '# Part 2',
      'More text and **bold**.',
    ];
    const whole = parts.join('\n\n');
    for (let end = 1; end <= whole.length; end += 1) {
      const blocks = markdownBlocks(whole.slice(0, end));
      expect(blocks.slice(0, -1)).toEqual(parts.slice(0, blocks.length - 1));
    }
  });

  it('keeps an empty or blank text as it is', () => {
    expect(markdownBlocks('')).toEqual(['']);
    expect(markdownBlocks('\n\n')).toEqual(['\n\n']);
    same('');
  });
});
