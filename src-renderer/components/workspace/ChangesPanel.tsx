import { useEffect, useMemo, useState } from 'react';
import {
  FILES_PAGE,
  type ChangeWriter,
  type ListedChangeSet,
  type ListedFileChange,
} from '../../../src-shared/checkpoint-model';
import { changeDiffKey } from '../../state/changes-actions';
import { useAppStore, useStoreApi } from '../../state/store-context';
import { Spinner } from '../icons';
import { DiffLines } from './DiffLines';
import { ChevronRightIcon } from './workspace-icons';
import { WorktreeSection } from './WorktreeSection';
import { changesPanelId } from './ChangesButton';
import { SessionPanel, SessionPanelNote } from './SessionPanel';
import {
  changeSetCount,
  describeChangeSets,
  fileCount,
  NOTHING_CHANGED_NOTE,
  type ChangeSetDescription,
} from '../../format/change-set-names';

/** Each turn's file changes, newest first: the files with line counts and writer (each one's diff loaded when opened), and the reverts. */
export function ChangesPanel({ sessionId }: { sessionId: string }) {
  const store = useStoreApi();
  const list = useAppStore((state) => state.changesBySession[sessionId]);
  const close = () => store.getState().setChangesPanel(null);
  const described = useMemo(
    () => (list?.state === 'ready' ? describeChangeSets(list.changeSets) : new Map<string, ChangeSetDescription>()),
    [list],
  );

  useEffect(() => {
    void store.getState().loadChanges(sessionId);
  }, [sessionId, store]);

  return (
    <SessionPanel
      id={changesPanelId(sessionId)}
      className="commands-panel changes-panel"
      testId="changes-panel"
      title="File changes in this session"
      closeLabel="Close changes"
      onClose={close}
    >
      <WorktreeSection sessionId={sessionId} />
      {list === undefined || list.state === 'loading' ? (
        <SessionPanelNote note={{ kind: 'loading', label: 'Loading the changes' }} />
      ) : list.state === 'failed' ? (
        <SessionPanelNote
          note={{ kind: 'failed', message: list.message, onRetry: () => void store.getState().loadChanges(sessionId) }}
        />
      ) : list.changeSets.length === 0 ? (
        <SessionPanelNote
          note={{
            kind: 'empty',
            text:
              list.unavailable ??
              'No file changes yet. When a turn changes files in the workspace, they show here, and you can revert them.',
          }}
        />
      ) : (
        <ol className="change-sets">
          {[...list.changeSets].reverse().map((changeSet) => (
            <ChangeSetView
              key={changeSet.changeSetId}
              sessionId={sessionId}
              changeSet={changeSet}
              described={described.get(changeSet.changeSetId)}
            />
          ))}
        </ol>
      )}
    </SessionPanel>
  );
}

function ChangeSetView({
  sessionId,
  changeSet,
  described,
}: {
  sessionId: string;
  changeSet: ListedChangeSet;
  described: ChangeSetDescription | undefined;
}) {
  const store = useStoreApi();
  const reverting = useAppStore((state) => state.reverting === changeSet.changeSetId);
  const loaded = useAppStore((state) => state.changeFiles[changeSet.changeSetId]);
  // The listing carries the first files; Show all loads the rest (a change set's files never change once complete).
  const shown = loaded !== undefined && loaded.files.length > changeSet.files.length ? loaded : changeSet;
  const title = described?.title ?? `Turn “${changeSet.turnText ?? ''}”`;
  const revertable = changeSet.status === 'complete' && changeSet.fileCount > 0 && changeSet.workspaceGone === null;
  const revertLabel = revertable ? (described?.revertLabel ?? null) : null;
  const nothingChanged = changeSet.status === 'complete' && changeSet.fileCount === 0;
  return (
    <li
      className="change-set"
      data-testid="change-set"
      data-status={changeSet.status}
      data-kind={described?.kind}
      aria-label={title}
    >
      <div className="change-set-header">
        <h3>
          {title}
          <span className="change-set-count"> · {changeSetCount(changeSet, described)}</span>
          {changeSet.status === 'complete' && changeSet.fileCount > 0 ? (
            <span
              className="change-set-count change-lines"
              aria-label={`${changeSet.added} lines added, ${changeSet.removed} removed in all`}
            >
              {' '}
              · <span className="is-added">+{changeSet.added}</span>{' '}
              <span className="is-removed">−{changeSet.removed}</span>
            </span>
          ) : null}
        </h3>
        {revertLabel === null ? null : (
          <button
            type="button"
            className="button button-small"
            disabled={reverting}
            onClick={() => void store.getState().revertChanges(sessionId, changeSet.changeSetId, null)}
          >
            {reverting ? <Spinner /> : null}
            {revertLabel}
          </button>
        )}
      </div>
      {changeSet.note === null ? null : <p className="change-set-note">{changeSet.note}</p>}
      {changeSet.workspaceGone === null ? null : (
        <p className="change-set-note" data-testid="change-set-gone">
          {changeSet.workspaceGone}
        </p>
      )}
      {nothingChanged && changeSet.note === null ? <p className="change-set-note">{NOTHING_CHANGED_NOTE}</p> : null}
      <ul className="change-files">
        {shown.files.map((file) => (
          <ChangeFileRow
            key={file.path}
            sessionId={sessionId}
            changeSetId={changeSet.changeSetId}
            file={file}
            writer={shown.writers[file.writer] ?? UNKNOWN_WRITER}
            revertable={revertable && described?.kind !== 'undo' && described?.fileUndone(file.path) !== true}
          />
        ))}
      </ul>
      {shown.files.length < changeSet.fileCount ? (
        <div className="change-files-more">
          <button
            type="button"
            className="button button-small button-quiet"
            disabled={loaded?.loading === true}
            onClick={() => void store.getState().loadChangeFiles(sessionId, changeSet)}
          >
            {loaded?.loading === true ? <Spinner /> : null}
            {showMoreLabel(shown.files.length, changeSet.fileCount)}
          </button>
          {loaded?.error == null ? null : (
            <p className="change-set-note" role="alert">
              The files could not be loaded: {loaded.error}
            </p>
          )}
        </div>
      ) : null}
    </li>
  );
}

/** Show all N files, or, when the rest is more than one load brings, the next page. */
function showMoreLabel(shown: number, count: number): string {
  return count - shown <= FILES_PAGE
    ? `Show all ${fileCount(count)}`
    : `Show ${FILES_PAGE.toLocaleString('en-US')} more (${shown.toLocaleString('en-US')} of ${fileCount(count)} shown)`;
}

/** What a file's writer reads as should the listing ever name one it does not carry. */
const UNKNOWN_WRITER: ChangeWriter = { kind: 'unknown' };

function ChangeFileRow({
  sessionId,
  changeSetId,
  file,
  writer,
  revertable,
}: {
  sessionId: string;
  changeSetId: string;
  file: ListedFileChange;
  writer: ChangeWriter;
  revertable: boolean;
}) {
  const store = useStoreApi();
  const [open, setOpen] = useState(false);
  const reverting = useAppStore((state) => state.reverting === `${changeSetId}:${file.path}`);
  return (
    <li
      className={`command-row change-file${open ? ' is-open' : ''}`}
      data-testid="change-file"
      data-path={file.path}
      data-change={file.change}
    >
      <div className="command-row-line">
        <button type="button" className="command-row-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
          <span className="tool-call-chevron" aria-hidden="true">
            <ChevronRightIcon />
          </span>
          <span className={`change-kind is-${file.change}`}>{file.change}</span>
          <code className="command-row-command" title={file.path}>
            {file.path}
          </code>
        </button>
        <span className="command-row-meta">
          {file.added === null ? (
            <span className="change-lines">binary</span>
          ) : (
            <span className="change-lines" aria-label={`${file.added} lines added, ${file.removed ?? 0} removed`}>
              <span className="is-added">+{file.added}</span> <span className="is-removed">−{file.removed}</span>
            </span>
          )}
          <span className="change-writer" title={writerTitle(writer)}>
            {writerLabel(writer)}
          </span>
          {revertable ? (
            <button
              type="button"
              className="button button-small button-quiet"
              disabled={reverting}
              onClick={() => void store.getState().revertChanges(sessionId, changeSetId, file.path)}
            >
              Revert file
            </button>
          ) : null}
        </span>
      </div>
      {open ? <ChangeFileDiff sessionId={sessionId} changeSetId={changeSetId} file={file} /> : null}
    </li>
  );
}

/** An opened file's diff, loaded from the host when it is first shown. */
function ChangeFileDiff({
  sessionId,
  changeSetId,
  file,
}: {
  sessionId: string;
  changeSetId: string;
  file: ListedFileChange;
}) {
  const store = useStoreApi();
  const diff = useAppStore((state) => state.changeDiffs[changeDiffKey(changeSetId, file.path)]);
  const binary = file.added === null;
  useEffect(() => {
    if (!binary) void store.getState().loadChangeDiff(sessionId, changeSetId, file.path);
  }, [binary, changeSetId, file.path, sessionId, store]);
  if (binary) return <p className="change-set-note">No text diff (binary file).</p>;
  if (diff === undefined || diff.state === 'loading') {
    return (
      <p className="change-set-note" role="status">
        <Spinner /> Loading the diff…
      </p>
    );
  }
  if (diff.state === 'failed') {
    return (
      <p className="change-set-note" role="alert">
        The diff could not be loaded: {diff.message}{' '}
        <button
          type="button"
          className="button button-small button-quiet"
          onClick={() => void store.getState().loadChangeDiff(sessionId, changeSetId, file.path)}
        >
          Try again
        </button>
      </p>
    );
  }
  if (diff.diff === '') return <p className="change-set-note">No text diff.</p>;
  return <DiffLines diff={diff.diff} label={`Changes to ${file.path}`} />;
}

function writerLabel(writer: ChangeWriter): string {
  switch (writer.kind) {
    case 'file_tool':
      return writer.tool;
    case 'command':
      return 'command';
    case 'native_agent':
      return 'Codex';
    case 'revert':
      return 'revert';
    case 'unknown':
      return 'during the turn';
  }
}

function writerTitle(writer: ChangeWriter): string {
  return writer.kind === 'command' ? `Changed by the command: ${writer.command}` : `Changed by: ${writerLabel(writer)}`;
}
