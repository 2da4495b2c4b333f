import { describe, expect, it } from 'vitest';
import { markdownToPlainText, plainSnippet } from './plain-text';

describe('markdown as plain text', () => {
  it('drops the marks and keeps the words', () => {
    expect(
      markdownToPlainText(
        '# Plan\n\nUse **bold** and _soft_ words, `npm test`, and [the docs](https://example.com).\n\n> quoted\n\n---\n\n~~old~~ new',
      ),
    ).toBe('Plan\n\nUse bold and soft words, npm test, and the docs (https://example.com).\n\nquoted\n\nold new');
  });

  it('keeps code blocks as they are, without their fences', () => {
    expect(markdownToPlainText('Run:\n\n```sh\nnpm run **build**\n```\n')).toBe('Run:\n\nnpm run **build**');
  });

  it('keeps list items and snake_case words', () => {
    expect(markdownToPlainText('- one_two_three\n- [x] done')).toBe('- one_two_three\ndone');
  });
});

describe('a search snippet as plain text', () => {
  it('drops the Markdown marks, also those the window cut in half, and keeps the matches marked', () => {
    const parts = [
      { text: '…the **', hit: false },
      { text: 'deploy', hit: true },
      { text: '** step\n\n## Then\n\n```sh\nnpm run `build', hit: false },
    ];
    expect(plainSnippet(parts)).toEqual([
      { text: '…the ', hit: false },
      { text: 'deploy', hit: true },
      { text: ' step Then npm run build', hit: false },
    ]);
    expect(
      plainSnippet([
        { text: 'see [the docs](https://example.com) for ', hit: false },
        { text: 'more', hit: true },
      ]),
    ).toEqual([
      { text: 'see the docs (https://example.com) for ', hit: false },
      { text: 'more', hit: true },
    ]);
  });
});
