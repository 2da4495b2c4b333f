import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Markdown } from '../components/Markdown';
import { loadHighlighting, loadHighlightingWhenIdle } from './markdown-options';

const FENCED = '```ts\nconst a = 1;\n```';

describe('loading highlighting', () => {
  it('waits for a fence where the page cannot say when it is idle', () => {
    loadHighlightingWhenIdle({});
    expect(renderToStaticMarkup(<Markdown text={FENCED} />)).not.toContain('hljs');
  });

  it('asks once for the next idle moment, with a deadline, and highlights from then on', async () => {
    const asked: Array<{ callback: () => void; timeout: number | undefined }> = [];
    const scope = {
      requestIdleCallback: (callback: () => void, options?: { timeout: number }) => asked.push({ callback, timeout: options?.timeout }),
    };
    loadHighlightingWhenIdle(scope);
    loadHighlightingWhenIdle(scope);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.timeout).toBeGreaterThan(0);
    expect(renderToStaticMarkup(<Markdown text={FENCED} />)).not.toContain('hljs');

    asked[0]?.callback();
    await loadHighlighting();
    expect(renderToStaticMarkup(<Markdown text={FENCED} />)).toContain('hljs-keyword');
    loadHighlightingWhenIdle(scope);
    expect(asked).toHaveLength(1);
  });
});
