import rehypeHighlight from 'rehype-highlight';

/**
 * rehype-highlight registers all its languages each time it is attached, and react-markdown attaches
 * plugins on every render — costly while a message streams. The transform is built once here and
 * handed out by an attacher that does no work.
 */
const highlightTransform = rehypeHighlight({ detect: false });
export function cachedHighlight() {
  return highlightTransform;
}
