import { lazy, Suspense } from 'react';
import { retryingImport } from '../platform/retrying-import';
import { unmarkSeams } from '../markdown/seam-marks';

const Markdown = lazy(() =>
  retryingImport(() => import('./Markdown')).then((module) => ({ default: module.Markdown })),
);

/**
 * A message's Markdown, with the Markdown parser (react-markdown, remark, micromark) loaded when the
 * first message is shown rather than in the first load; until then the text shows as it was written.
 */
export function LazyMarkdown({ text }: { text: string }) {
  return (
    <Suspense fallback={<div className="markdown-pending">{unmarkSeams(text)}</div>}>
      <Markdown text={text} />
    </Suspense>
  );
}
