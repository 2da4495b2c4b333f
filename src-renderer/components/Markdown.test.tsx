import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { loadHighlighting } from '../markdown/markdown-options';
import { markSeams } from '../markdown/seam-marks';
import { Markdown } from './Markdown';
import { ResumeSeamLabels } from './resume-seam-labels';

const render = (text: string) => renderToStaticMarkup(<Markdown text={text} />);

describe('Markdown', () => {
  it('renders GitHub-flavoured Markdown: emphasis, tables, task lists', () => {
    const html = render('Some **bold** text\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<table>');
    expect(html).toContain('type="checkbox"');
  });

  it('draws a resume marker exactly where a resumed part starts, in a paragraph or in code, without adding to the text', () => {
    const text = 'chunk 1/9 chunk 2/9 chunk 3/9\n\n```ts\nconst a = 1;\nconst b = 2;\n```';
    const html = renderToStaticMarkup(
      <ResumeSeamLabels.Provider value={['Resumed: you pressed Stop.', 'Resumed: the app restarted.']}>
        <Markdown text={markSeams(text, ['chunk 1/9 '.length, text.indexOf('const b')])} />
      </ResumeSeamLabels.Provider>,
    );
    expect(html).toMatch(
      /chunk 1\/9 <span class="resume-marker resume-seam"[^>]*aria-label="Resumed: you pressed Stop."[^>]*>.*?<\/span>chunk 2\/9/,
    );
    expect(html).toMatch(
      /const a = 1;\n<span class="resume-marker resume-seam"[^>]*aria-label="Resumed: the app restarted."/,
    );
    expect(html).not.toMatch(/[\uE000-\uE0FF]/);
  });

  it('opens links in a new window without opener or referrer', () => {
    expect(render('[site](https://example.com)')).toContain(
      '<a href="https://example.com" target="_blank" rel="noopener noreferrer">site</a>',
    );
  });

  it('drops raw HTML and unsafe link protocols', () => {
    const html = render('<script>alert(1)</script> <b>bold</b> [x](javascript:alert(1))');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<b>');
    expect(html).not.toContain('javascript:');
  });

  it('shows fenced code plain until highlighting has loaded (it is not part of the first load)', () => {
    const html = render('```ts\nconst a = 1;\n```');
    expect(html).toContain('const a = 1;');
    expect(html).not.toContain('hljs');
  });

  it('highlights fenced code and gives each block a language label and a Copy button', async () => {
    await loadHighlighting();
    const html = render('```ts\nconst a = 1;\n```');
    expect(html).toContain('hljs-keyword');
    expect(html).toContain('data-label="ts"');
    expect(html).toContain('aria-label="Copy code"');
  });

  it('shows remote images as links instead of loading them', () => {
    const html = render('![a cat](https://example.com/cat.png)');
    expect(html).not.toContain('<img');
    expect(html).toContain('href="https://example.com/cat.png"');
  });
});
