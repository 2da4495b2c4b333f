import type { Options } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';

/**
 * How messages are rendered: GitHub-flavoured Markdown, highlighted code blocks, and no raw HTML
 * (react-markdown escapes it; `skipHtml` drops it). Unsafe link protocols are removed by
 * react-markdown's default URL transform.
 */
export const remarkPlugins: Options['remarkPlugins'] = [remarkGfm];
export const rehypePlugins: Options['rehypePlugins'] = [[rehypeHighlight, { detect: false }]];
