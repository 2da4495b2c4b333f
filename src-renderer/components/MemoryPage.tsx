import { useEffect, useState } from 'react';
import type { MemoryRecord } from '../../src-shared/memory-model';
import { MAX_MEMORY_TEXT } from '../../src-shared/memory-model';
import { useAppStore, useStoreApi } from '../state/store-context';
import { Spinner } from './icons';

/** Settings → Memory: everything the agent remembers, each with where it came from; edit or delete any. */
export function MemoryPage() {
  const store = useStoreApi();
  const list = useAppStore((state) => state.memoryList);

  useEffect(() => {
    void store.getState().loadMemories();
  }, [store]);

  if (list.state === 'failed')
    return (
      <p className="form-notice tone-error" data-testid="memory-unavailable">
        {list.message}
      </p>
    );
  if (list.state !== 'ready') {
    return (
      <div className="settings-loading">
        <Spinner label="Loading memory" />
      </div>
    );
  }
  return (
    <div className="memory-page">
      <h3 className="settings-heading">What the agent remembers</h3>
      <p className="settings-note">
        The agent saves short facts with its <code>remember</code> tool and finds them again with <code>recall</code>; a
        new session starts with the newest memories of its workspace and the global ones. Your edits always stand: the
        agent adds memories, it never changes yours.
      </p>
      {list.memories.length === 0 ? (
        <p className="settings-note">Nothing remembered yet.</p>
      ) : (
        <ul className="memory-list">
          {list.memories.map((memory) => (
            <MemoryRow key={memory.memoryId} memory={memory} />
          ))}
        </ul>
      )}
    </div>
  );
}

function MemoryRow({ memory }: { memory: MemoryRecord }) {
  const store = useStoreApi();
  const sourceTitle = useAppStore((state) =>
    memory.sourceSessionId === null ? null : (state.sessions.byId[memory.sourceSessionId]?.title ?? null),
  );
  const [draft, setDraft] = useState<string | null>(null);
  const actions = store.getState();
  const save = async () => {
    if (draft === null || draft.trim() === '') return;
    if (await actions.updateMemory(memory.memoryId, draft, memory.revision)) setDraft(null);
  };
  const openSource = () => {
    if (memory.sourceSessionId === null) return;
    actions.closeSettings();
    actions.selectSession(memory.sourceSessionId);
  };
  return (
    <li className="memory-row" data-testid="memory-row">
      {draft === null ? (
        <p className="memory-text">{memory.text}</p>
      ) : (
        <textarea
          className="memory-edit"
          aria-label="Memory text"
          value={draft}
          maxLength={MAX_MEMORY_TEXT}
          rows={3}
          onChange={(event) => setDraft(event.target.value)}
        />
      )}
      <div className="memory-meta">
        <span className="tag">{memory.scope === 'global' ? 'Global' : 'Workspace'}</span>
        {memory.workspacePath === null ? null : (
          <span className="memory-path" title={memory.workspacePath}>
            {memory.workspacePath}
          </span>
        )}
        <span className="memory-source">
          {memory.editedBy === 'person' ? 'Edited by you · ' : ''}
          {memory.sourceSessionId === null ? (
            'written by you'
          ) : (
            <>
              from{' '}
              <button
                type="button"
                className="text-button"
                onClick={openSource}
                disabled={sourceTitle === null}
                title={
                  sourceTitle === null
                    ? 'That session is not in the list (deleted or archived)'
                    : `Written in turn ${memory.sourceTurnId ?? '?'} of this session`
                }
              >
                {sourceTitle ?? 'a session no longer listed'}
              </button>
            </>
          )}
        </span>
        <span className="memory-actions">
          {draft === null ? (
            <>
              <button type="button" className="text-button" onClick={() => setDraft(memory.text)}>
                Edit
              </button>
              <button
                type="button"
                className="text-button danger"
                onClick={() => void actions.removeMemory(memory.memoryId, memory.revision)}
              >
                Delete
              </button>
            </>
          ) : (
            <>
              <button type="button" className="text-button" onClick={() => setDraft(null)}>
                Cancel
              </button>
              <button
                type="button"
                className="button button-primary"
                disabled={draft.trim() === ''}
                onClick={() => void save()}
              >
                Save
              </button>
            </>
          )}
        </span>
      </div>
    </li>
  );
}
