import { diffLineKind } from '../../format/file-diff';

/** A unified diff, each line coloured by its kind (added, removed, hunk header, file header). */
export function DiffLines({ diff, label }: { diff: string; label: string }) {
  return (
    <pre className="tool-diff" aria-label={label} data-testid="tool-diff">
      {diff.split('\n').map((line, index) => (
        <span key={index} className={`tool-diff-line is-${diffLineKind(line)}`}>
          {line === '' ? ' ' : line}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}
