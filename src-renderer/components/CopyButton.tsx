import { useEffect, useState } from 'react';
import { copyText } from '../platform/clipboard';
import { CheckIcon, CopyIcon } from './icons';

const FEEDBACK_MS = 1600;

/** Copies the code of a block; says "Copied" for a moment afterwards. */
export function CopyButton({ getText }: { getText: () => string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');

  useEffect(() => {
    if (state === 'idle') return;
    const timer = window.setTimeout(() => setState('idle'), FEEDBACK_MS);
    return () => window.clearTimeout(timer);
  }, [state]);

  const label = state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : 'Copy';
  return (
    <button
      type="button"
      className={`copy-button copy-${state}`}
      aria-label={state === 'idle' ? 'Copy code' : label}
      data-label={label}
      onClick={() => {
        void copyText(getText()).then((copied) => setState(copied ? 'copied' : 'failed'));
      }}
    >
      {state === 'copied' ? <CheckIcon /> : <CopyIcon />}
    </button>
  );
}
