import { useEffect, useState } from 'react';
import { markdownToPlainText } from '../format/plain-text';
import { copyText } from '../platform/clipboard';
import { selectAnswerText } from '../state/selectors';
import { useAppStore } from '../state/store-context';

const FEEDBACK_MS = 1600;

/** Copy a message as Markdown (as written) or as plain text: the first buttons of its action row. */
export function MessageCopyButtons({
  sessionId,
  index,
  kind,
  text,
}: {
  sessionId: string;
  index: number;
  kind: 'user_message' | 'assistant_message';
  text: string;
}) {
  const answer = useAppStore((state) =>
    kind === 'assistant_message' ? selectAnswerText(sessionId, index)(state) : '',
  );
  const [copied, setCopied] = useState<'markdown' | 'plain' | 'failed' | null>(null);
  useEffect(() => {
    if (copied === null) return;
    const timer = window.setTimeout(() => setCopied(null), FEEDBACK_MS);
    return () => window.clearTimeout(timer);
  }, [copied]);
  const source = kind === 'assistant_message' ? answer : text;
  const copy = (as: 'markdown' | 'plain') => {
    void copyText(as === 'markdown' ? source : markdownToPlainText(source)).then((ok) => setCopied(ok ? as : 'failed'));
  };
  return (
    <>
      <button type="button" className="text-button" onClick={() => copy('markdown')}>
        {copied === 'markdown' ? 'Copied' : 'Copy'}
      </button>
      <button type="button" className="text-button" onClick={() => copy('plain')}>
        {copied === 'plain' ? 'Copied' : 'Copy as plain text'}
      </button>
      <span className="visually-hidden" role="status">
        {copied === 'failed' ? 'Copying failed' : copied === null ? '' : 'Copied'}
      </span>
    </>
  );
}
