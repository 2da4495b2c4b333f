import type { Options } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';

/**
 * rehype-highlight registers all its languages each time it is attached, and react-markdown attaches
 * plugins on every render — costly while a message streams. The transform is built once here and
 * handed out by an attacher that does no work.
 */
const highlightTransform = rehypeHighlight({ detect: false });
function cachedHighlight() {
  return highlightTransform;
}

/**
 * How messages are rendered: GitHub-flavoured Markdown, highlighted code blocks, and no raw HTML
 * (react-markdown escapes it; `skipHtml` drops it). Unsafe link protocols are removed by
 * react-markdown's default URL transform.
 */
export const remarkPlugins: Options['remarkPlugins'] = [remarkGfm];
export const rehypePlugins: Options['rehypePlugins'] = [cachedHighlight];
