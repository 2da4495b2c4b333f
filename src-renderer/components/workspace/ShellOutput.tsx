import { useLayoutEffect, useRef } from 'react';
import type { ShellOutputChunk } from '../../state/reducers/shell-reducer';

/** Within this distance (px) of the bottom the output counts as "at the end" and follows new lines. */
const AT_END_PX = 24;

/**
 * A command's output as a terminal shows it: monospace, stderr set apart, following new output while
 * the person is at the bottom (scrolling up to read stops that until they return).
 */
export function ShellOutput({
  chunks,
  clipped,
  live,
  label,
}: {
  chunks: readonly ShellOutputChunk[];
  clipped: boolean;
  live: boolean;
  label: string;
}) {
  const ref = useRef<HTMLPreElement>(null);
  const atEnd = useRef(true);

  useLayoutEffect(() => {
    const element = ref.current;
    if (element !== null && atEnd.current) element.scrollTop = element.scrollHeight;
  }, [chunks]);

  const empty = chunks.length === 0;
  return (
    <pre
      ref={ref}
      className={`shell-output${empty ? ' is-empty' : ''}`}
      data-testid="shell-output"
      role="log"
      aria-label={label}
      tabIndex={0}
      onScroll={() => {
        const element = ref.current;
        if (element !== null)
          atEnd.current = element.scrollHeight - element.scrollTop - element.clientHeight <= AT_END_PX;
      }}
    >
      {clipped ? (
        <span className="shell-clipped">… earlier output is not kept; this is the last part.{'\n'}</span>
      ) : null}
      {empty ? <span className="shell-quiet">{live ? 'No output yet' : 'No output'}</span> : null}
      {chunks.map((chunk, index) => (
        <span key={index} className={chunk.stream === 'stderr' ? 'shell-stderr' : 'shell-stdout'}>
          {chunk.text}
        </span>
      ))}
    </pre>
  );
}
