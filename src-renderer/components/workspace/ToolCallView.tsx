import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import type { TranscriptItem } from '../../../src-shared/model';
import { isActiveStatus } from '../../../src-shared/model';
import { isLiveShellRunStatus } from '../../../src-shared/shell-run-model';
import { editFileDiff, toolChangeCounts, writeFileDiff } from '../../format/file-diff';
import {
  formatDuration,
  TOOL_STATUS_LABELS,
  toolCallStatus,
  toolErrorText,
  toolTarget,
  type ToolCallStatus,
} from '../../format/tool-call';
import { shellRunIdForToolCall } from '../../state/reducers/shell-reducer';
import { useAppStore, useStoreApi } from '../../state/store-context';
import { selectToolResult } from '../../state/tool-calls';
import { CheckIcon, Spinner } from '../icons';
import { PLAN_TOOL } from './plan-tool';
import { ChevronRightIcon, FileEditIcon, FileIcon, FindIcon, TerminalIcon, ToolIcon } from './workspace-icons';
import { retryingImport } from '../../platform/retrying-import';

/** A call's arguments and result (and its diff) load when the first call is opened: a transcript shows the one-line summaries. */
/** An ACP agent's plan: its card loads with the first plan shown. */
const PlanCard = lazy(() =>
  retryingImport(() => import('./PlanCard')).then((module) => ({ default: module.PlanCard })),
);
// A command's panel loads with the first command shown (its row is there at once, its output a moment later).
const ShellRunPanel = lazy(() =>
  retryingImport(() => import('./ShellRunPanel')).then((module) => ({ default: module.ShellRunPanel })),
);
const ToolCallDetails = lazy(() =>
  retryingImport(() => import('./ToolCallDetails')).then((module) => ({ default: module.ToolCallDetails })),
);

type Fields = Readonly<Record<string, unknown>>;
const fieldsOf = (value: unknown): Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : {};
const stringOf = (value: unknown): string | null => (typeof value === 'string' ? value : null);

export interface ToolCallViewProps {
  readonly sessionId: string;
  /** The call's key (turn and call id), when the items carry a toolCallId. */
  readonly callKey: string | null;
  /** The call item; absent when only the result is loaded. */
  readonly call?: TranscriptItem;
  /** The result item, when the caller has it already (otherwise it is looked up by key). */
  readonly result?: TranscriptItem;
  /** When the person allowed the call: its duration counts from then, not from the request. */
  readonly startedAt?: number;
  /** Attributes for the element holding the item's text (the tool's name). */
  readonly common: Record<string, string>;
}

/**
 * A tool call as one quiet line: the tool, what it works on, how it went and how long it took; a
 * click shows the arguments and the result, and a file change as a diff. A shell command shows as a
 * small live terminal instead.
 */
export function ToolCallView({ sessionId, callKey, call, result: given, startedAt, common }: ToolCallViewProps) {
  const store = useStoreApi();
  const looked = useAppStore(selectToolResult(sessionId, given === undefined ? callKey : null));
  const result = given ?? looked;
  const item = (call ?? result)!;
  const toolName = stringOf(item.data?.toolName) ?? item.text;
  const input = call?.data?.input;
  const turnActive = useAppStore((state) => {
    const status = state.transcripts[sessionId]?.turnsById[item.turnId]?.status;
    return status !== undefined && isActiveStatus(status);
  });
  const status = toolCallStatus(result, turnActive);

  const isShell = toolName === 'run_shell';
  const shellRunId = useAppStore((state) => {
    if (!isShell) return undefined;
    const toolCallId = stringOf(item.data?.toolCallId);
    const matched = toolCallId === null ? undefined : shellRunIdForToolCall(state.shell, item.turnId, toolCallId);
    return matched ?? stringOf(fieldsOf(result?.data?.output).shellRunId) ?? undefined;
  });
  const shellKnown = useAppStore((state) =>
    shellRunId === undefined ? false : state.shell.runsById[shellRunId]?.record != null,
  );
  const shellLive = useAppStore((state) => {
    const record = shellRunId === undefined ? null : state.shell.runsById[shellRunId]?.record;
    return record != null && isLiveShellRunStatus(record.status);
  });
  const generation = useAppStore((state) => state.connection.generation);

  // A command's record comes by event when this window saw it start; otherwise read the session's commands.
  useEffect(() => {
    if (isShell && shellRunId === undefined) store.getState().ensureShellRuns(sessionId);
  }, [isShell, shellRunId, sessionId, store, generation]);
  // Its record is missing, or still says running though the result is in (an event was missed): read it.
  useEffect(() => {
    if (shellRunId !== undefined && (!shellKnown || (shellLive && result !== undefined)))
      void store.getState().loadShellRun(shellRunId);
  }, [shellRunId, shellKnown, shellLive, result, store]);

  const duration = result === undefined ? null : result.createdAt - (startedAt ?? call?.createdAt ?? result.createdAt);
  const name = (
    <span {...common} className="message message-tool">
      {item.text}
    </span>
  );

  if (toolName === PLAN_TOOL)
    return (
      <Suspense fallback={null}>
        <PlanCard call={call} result={result} />
      </Suspense>
    );
  if (isShell && shellRunId !== undefined) {
    return (
      <div
        className="message-line message-line-tool tool-call tool-call-shell"
        data-testid="tool-call"
        data-tool={toolName}
        data-status={status}
      >
        <Suspense fallback={null}>
          <ShellRunPanel shellRunId={shellRunId} title={name} footer={<ShellResultNote result={result} />} />
        </Suspense>
      </div>
    );
  }
  return (
    <ToolCallLine
      toolName={toolName}
      name={name}
      input={input}
      result={result}
      status={status}
      duration={call === undefined ? null : duration}
    />
  );
}

function ShellResultNote({ result }: { result: TranscriptItem | undefined }) {
  const note = stringOf(fieldsOf(result?.data?.output).note);
  return note === null ? null : <p className="shell-note">{note}</p>;
}

function ToolCallLine(props: {
  toolName: string;
  name: ReactNode;
  input: unknown;
  result: TranscriptItem | undefined;
  status: ToolCallStatus;
  duration: number | null;
}) {
  const { toolName, name, input, result, status, duration } = props;
  const [open, setOpen] = useState(false);
  const target = toolTarget(toolName, input) ?? stringOf(fieldsOf(result?.data?.output).path);
  const diff = fileDiff(toolName, input, result);
  const counts = toolChangeCounts(toolName, input, result?.data?.isError === true ? null : result?.data?.output, diff);
  const error = status === 'failed' ? toolErrorText(result) : null;
  return (
    <div
      className={`message-line message-line-tool tool-call is-${status}`}
      data-testid="tool-call"
      data-tool={toolName}
      data-status={status}
    >
      <div className="tool-call-line">
        <button
          type="button"
          className="tool-call-toggle"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
          title={open ? 'Hide the details' : 'Show the arguments and the result'}
        >
          <span className="tool-call-chevron" aria-hidden="true">
            <ChevronRightIcon />
          </span>
          <span className="tool-call-icon" aria-hidden="true">
            <ToolKindIcon toolName={toolName} />
          </span>
          {name}
          {target === null ? null : (
            <code className="tool-call-target" title={target}>
              {target}
            </code>
          )}
          {counts === null || (counts.added === 0 && counts.removed === 0) ? null : (
            <span className="tool-call-counts" title={`${counts.added} lines added, ${counts.removed} removed`}>
              <span className="is-add">+{counts.added}</span> <span className="is-remove">−{counts.removed}</span>
            </span>
          )}
          {error === null ? null : (
            <span className="tool-call-error" title={error}>
              {error}
            </span>
          )}
        </button>
        <span className="tool-call-meta">
          <span className={`tool-call-status is-${status}`} data-testid="tool-status">
            {status === 'running' ? <Spinner /> : status === 'done' ? <CheckIcon /> : null}
            {TOOL_STATUS_LABELS[status]}
          </span>
          {duration === null ? null : <span className="tool-call-duration">{formatDuration(duration)}</span>}
        </span>
      </div>
      {open ? (
        <Suspense fallback={null}>
          <ToolCallDetails toolName={toolName} input={input} result={result} diff={diff} target={target} />
        </Suspense>
      ) : null}
    </div>
  );
}

/**
 * The change a file tool makes, as a diff: one the call carries (a Codex patch), edit_file's search and
 * replace, write_file's content once its result says whether the file was new.
 */
function fileDiff(toolName: string, input: unknown, result: TranscriptItem | undefined): string | null {
  const fields = fieldsOf(input);
  const path = stringOf(fields.path);
  if (path === null) return null;
  const carried = stringOf(fields.diff);
  if (carried !== null) return carried;
  if (toolName === 'edit_file') {
    const search = stringOf(fields.search);
    const replace = stringOf(fields.replace);
    return search === null || replace === null ? null : editFileDiff(path, search, replace);
  }
  if (toolName === 'write_file') {
    const content = stringOf(fields.content);
    if (content === null || result === undefined || result.data?.isError === true) return null;
    return writeFileDiff(path, content, fieldsOf(result.data?.output).created !== true);
  }
  return null;
}

function ToolKindIcon({ toolName }: { toolName: string }) {
  switch (toolName) {
    case 'run_shell':
      return <TerminalIcon />;
    case 'edit_file':
    case 'write_file':
      return <FileEditIcon />;
    case 'read_file':
    case 'list_files':
      return <FileIcon />;
    case 'glob':
    case 'grep':
      return <FindIcon />;
    default:
      return <ToolIcon />;
  }
}
