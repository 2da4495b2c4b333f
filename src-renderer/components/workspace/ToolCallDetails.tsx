import type { TranscriptItem } from '../../../src-shared/model';
import { valueSections } from '../../format/tool-call';
import { DiffLines } from './DiffLines';

type Fields = Readonly<Record<string, unknown>>;
const fieldsOf = (value: unknown): Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : {};

/** Arguments a diff already shows are left out of the argument list. */
const SHOWN_BY_DIFF = new Set(['search', 'replace', 'content', 'diff']);

/** An opened tool call: the diff of a file change, the arguments and the result. */
export function ToolCallDetails(props: {
  toolName: string;
  input: unknown;
  result: TranscriptItem | undefined;
  diff: string | null;
  target: string | null;
}) {
  const { toolName, input, result, diff, target } = props;
  const args = valueSections(
    diff === null
      ? input
      : Object.fromEntries(Object.entries(fieldsOf(input)).filter(([key]) => !SHOWN_BY_DIFF.has(key))),
    'input',
  );
  const output = valueSections(result?.data?.output, result?.data?.isError === true ? 'error' : 'output');
  const replaced = toolName === 'write_file' && result !== undefined && fieldsOf(result.data?.output).created !== true;
  return (
    <div className="tool-call-details">
      {diff === null ? null : (
        <>
          <DiffLines diff={diff} label={`Changes to ${target ?? 'the file'}`} />
          {replaced ? (
            <p className="tool-call-hint">
              The whole file was replaced with this content (its earlier content is not in the record).
            </p>
          ) : null}
          {toolName === 'write_file' && result === undefined ? (
            <p className="tool-call-hint">The content shows once the write is done.</p>
          ) : null}
        </>
      )}
      <Sections title="Arguments" sections={args} />
      {result === undefined ? (
        <p className="tool-call-hint">No result yet.</p>
      ) : (
        <Sections
          title={result.data?.isError === true ? 'Error' : 'Result'}
          sections={output}
          error={result.data?.isError === true}
        />
      )}
    </div>
  );
}

function Sections({
  title,
  sections,
  error = false,
}: {
  title: string;
  sections: ReturnType<typeof valueSections>;
  error?: boolean;
}) {
  if (sections.facts.length === 0 && sections.blocks.length === 0) return null;
  return (
    <section className={`tool-call-section${error ? ' is-error' : ''}`}>
      <h4 className="tool-call-section-title">{title}</h4>
      {sections.facts.length === 0 ? null : (
        <dl className="tool-call-facts">
          {sections.facts.map(([key, value]) => (
            <div key={key} className="tool-call-fact">
              <dt>{key}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      )}
      {sections.blocks.map((block) => (
        <div key={block.label} className="tool-call-block">
          {sections.blocks.length > 1 || sections.facts.length > 0 ? (
            <span className="tool-call-block-label">{block.label}</span>
          ) : null}
          <pre className="tool-call-pre">{block.text}</pre>
        </div>
      ))}
    </section>
  );
}
