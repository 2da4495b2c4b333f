import { diffBody } from '../../format/file-diff';

/**
 * A one-file unified diff: its hunks, each line coloured by its kind (added, removed, hunk header).
 * The file header is left out; the path is shown once, by whoever shows the diff.
 */
export function DiffLines({ diff, label }: { diff: string; label: string }) {
  return (
    <pre className="tool-diff" aria-label={label} data-testid="tool-diff">
      {diffBody(diff).map((line, index) => (
        <span key={index} className={`tool-diff-line is-${line.kind}`}>
          {line.text === '' ? ' ' : line.text}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}
