import { useEffect, useSyncExternalStore } from 'react';
import type { Options } from 'react-markdown';
import remarkGfm from 'remark-gfm';

type RehypePlugins = NonNullable<Options['rehypePlugins']>;

/**
 * How messages are rendered: GitHub-flavoured Markdown, highlighted code blocks, and no raw HTML
 * (react-markdown escapes it; `skipHtml` drops it). Unsafe link protocols are removed by
 * react-markdown's default URL transform.
 */
export const remarkPlugins: Options['remarkPlugins'] = [remarkGfm];

/**
 * Syntax highlighting (highlight.js and its languages, about a sixth of the app's code) is not part
 * of the first load: it loads when the first message with a fenced code block is shown, or sooner,
 * while the page is idle once any message has been shown — so the first code block an answer streams
 * does not stall it: in a trace of the first code block streamed into a page, the task that loaded
 * highlighting took 40–53 ms, and 27–31 ms with it loaded at idle (~12–19 ms of it evaluating
 * highlight.js's languages). Every message re-renders highlighted once it has arrived.
 */
const PLAIN: RehypePlugins = [];
let highlighted: RehypePlugins | null = null;
let loading: Promise<void> | null = null;
let idleLoadAsked = false;
/** If the page is never idle (an answer streaming from the start), highlighting loads after this anyway. */
const IDLE_LOAD_TIMEOUT_MS = 3_000;
const listeners = new Set<() => void>();

export function loadHighlighting(): Promise<void> {
  loading ??= import('./highlight-plugin').then((module) => {
    highlighted = [module.cachedHighlight];
    for (const listener of listeners) listener();
  });
  return loading;
}

/** Loads highlighting the next time the page is idle, once; where idle time is unknown (tests), it waits for a fence. */
export function loadHighlightingWhenIdle(scope: { requestIdleCallback?: (callback: () => void, options?: { timeout: number }) => number } = globalThis): void {
  if (idleLoadAsked || loading !== null || scope.requestIdleCallback === undefined) return;
  idleLoadAsked = true;
  scope.requestIdleCallback(() => void loadHighlighting().catch(() => {}), { timeout: IDLE_LOAD_TIMEOUT_MS });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The rehype plugins for a message: highlighting once loaded (and asked for when `text` has a fence). */
export function useRehypePlugins(text: string): RehypePlugins {
  const hasFence = text.includes('```') || text.includes('~~~');
  useEffect(() => {
    if (hasFence) void loadHighlighting().catch(() => {});
    else loadHighlightingWhenIdle();
  }, [hasFence]);
  return useSyncExternalStore(
    subscribe,
    () => highlighted ?? PLAIN,
    () => highlighted ?? PLAIN,
  );
}
