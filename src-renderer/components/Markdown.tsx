import { Fragment, memo, useContext, type ComponentProps } from 'react';
import ReactMarkdown, { type Components, type ExtraProps } from 'react-markdown';
import { markdownBlocks } from '../markdown/markdown-blocks';
import { remarkPlugins, useRehypePlugins } from '../markdown/markdown-options';
import { CodeBlock } from './CodeBlock';
import { RetryIcon } from './icons';
import { ResumeSeamLabels } from './resume-seam-labels';

/** Links leave the app: a new window (the desktop shell hands it to the browser), no opener, no referrer. */
function ExternalLink({ node: _node, href, children, ...rest }: ComponentProps<'a'> & ExtraProps) {
  return (
    <a {...rest} href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}

/** Remote images are not loaded (privacy, and the CSP forbids them): they show as links. */
function ImageLink({ src, alt }: ComponentProps<'img'> & ExtraProps) {
  const href = typeof src === 'string' ? src : undefined;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className="image-link">
      {alt !== undefined && alt !== '' ? alt : href}
    </a>
  );
}

/**
 * Where a resumed run's text starts (a seam, see resume-seams.ts): a marker whose words come from CSS
 * and its label, so the answer's text stays the answer's.
 */
function SpanOrSeam({ node: _node, ...rest }: ComponentProps<'span'> & ExtraProps) {
  const labels = useContext(ResumeSeamLabels);
  const seam = (rest as Record<string, unknown>)['data-resume-seam'];
  if (typeof seam !== 'string') return <span {...rest} />;
  const label = labels[Number(seam)] ?? 'Resumed here';
  return (
    <span
      className="resume-marker resume-seam"
      data-testid="resume-marker"
      role="note"
      aria-label={label}
      title={label}
      data-label={label}
    >
      <RetryIcon />
    </span>
  );
}

const components: Components = { a: ExternalLink, pre: CodeBlock, img: ImageLink, span: SpanOrSeam };

/**
 * A message's Markdown (GFM, highlighted code, no raw HTML). Re-renders only when the text changes, and
 * then parses only the blocks that changed: while a message streams, its last one.
 */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return markdownBlocks(text).map((block, index) => (
    // The newline between blocks is the one a whole-text render puts between them.
    <Fragment key={index}>
      {index > 0 && '\n'}
      <MarkdownBlock text={block} />
    </Fragment>
  ));
});

/** One block, or any Markdown parsed whole. */
export const MarkdownBlock = memo(function MarkdownBlock({ text }: { text: string }) {
  const rehypePlugins = useRehypePlugins(text);
  return (
    <ReactMarkdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components} skipHtml>
      {text}
    </ReactMarkdown>
  );
});
