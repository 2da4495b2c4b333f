import { useEffect, useSyncExternalStore } from 'react';
import type { Options } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { rehypeResumeSeams } from './resume-seams';

type RehypePlugins = NonNullable<Options['rehypePlugins']>;

/**
 * How messages are rendered: GitHub-flavoured Markdown, highlighted code blocks, and no raw HTML
 * (react-markdown escapes it; `skipHtml` drops it). Unsafe link protocols are removed by
 * react-markdown's default URL transform.
 */
export const remarkPlugins: Options['remarkPlugins'] = [remarkGfm];

/**
 * Every message marks where a resumed run's text starts (resume-seams.ts). Syntax highlighting (highlight.js and its languages, about a sixth of the app's code) is not part
 * of the first load: it loads when the first message with a fenced code block is shown, and every
 * message re-renders highlighted once it has arrived.
 */
const PLAIN: RehypePlugins = [rehypeResumeSeams];
let highlighted: RehypePlugins | null = null;
let loading: Promise<void> | null = null;
const listeners = new Set<() => void>();

export function loadHighlighting(): Promise<void> {
  loading ??= import('./highlight-plugin').then((module) => {
    highlighted = [module.cachedHighlight, rehypeResumeSeams];
    for (const listener of listeners) listener();
  });
  return loading;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The rehype plugins for a message: highlighting once loaded (and asked for when `text` has a fence). */
export function useRehypePlugins(text: string): RehypePlugins {
  const hasFence = text.includes('```') || text.includes('~~~');
  useEffect(() => {
    if (hasFence) void loadHighlighting();
  }, [hasFence]);
  return useSyncExternalStore(
    subscribe,
    () => highlighted ?? PLAIN,
    () => highlighted ?? PLAIN,
  );
}
