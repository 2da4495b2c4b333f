import { useState } from 'react';
import type { WorktreeLeftover } from '../../../src-shared/worktree-model';
import { useAppStore, useStoreApi } from '../../state/store-context';
import { AlertIcon } from '../icons';

const REASONS: Record<WorktreeLeftover['reason'], string> = {
  no_session: 'its session was deleted',
  folder_missing: 'its folder is gone',
  unknown_folder: 'no session knows it (Cairn stopped while making it)',
};

/** Worktrees found at start that no session works in, each with Discard or Keep (SessionNotices reads them). */
export function LeftoverWorktreesNotice() {
  const store = useStoreApi();
  const leftovers = useAppStore((state) => state.worktreeLeftovers);
  const [busy, setBusy] = useState<{ path: string; action: 'discard' | 'keep' } | null>(null);
  // Discard deletes a folder and a branch, maybe with work never merged: it asks first, in the row.
  const [confirming, setConfirming] = useState<string | null>(null);
  const act = (path: string, action: 'discard' | 'keep') => {
    setConfirming(null);
    setBusy({ path, action });
    const state = store.getState();
    void (action === 'discard' ? state.discardWorktreeLeftover(path) : state.keepWorktreeLeftover(path)).finally(() =>
      setBusy(null),
    );
  };

  if (leftovers === null || leftovers.length === 0) return null;
  return (
    <div className="session-notice worktree-leftovers" role="status" data-testid="worktree-leftovers">
      <AlertIcon />
      <div>
        <p>
          <strong>
            {leftovers.length === 1 ? 'A worktree was left behind.' : `${leftovers.length} worktrees were left behind.`}
          </strong>{' '}
          Discard removes the folder and its branch (it asks first); Keep leaves it as it is and stops listing it.
        </p>
        <ul>
          {leftovers.map((leftover) => (
            <li key={leftover.path}>
              <code>{leftover.worktree?.branch ?? leftover.path}</code> — {REASONS[leftover.reason]}{' '}
              {confirming === leftover.path ? (
                <span role="group" aria-label="Confirm discarding this worktree" data-testid="leftover-confirm">
                  <span>Delete its folder and branch, with any work in them?</span>{' '}
                  <button
                    type="button"
                    className="button button-small button-danger"
                    autoFocus
                    onClick={() => act(leftover.path, 'discard')}
                  >
                    Discard for good
                  </button>{' '}
                  <button
                    type="button"
                    className="button button-small button-quiet"
                    onClick={() => setConfirming(null)}
                  >
                    Cancel
                  </button>
                </span>
              ) : (
                <>
                  <button
                    type="button"
                    className="button button-small"
                    disabled={busy !== null}
                    onClick={() => setConfirming(leftover.path)}
                  >
                    {busy?.path === leftover.path && busy.action === 'discard' ? 'Discarding…' : 'Discard'}
                  </button>{' '}
                  <button
                    type="button"
                    className="button button-small button-quiet"
                    disabled={busy !== null}
                    onClick={() => act(leftover.path, 'keep')}
                  >
                    {busy?.path === leftover.path && busy.action === 'keep' ? 'Keeping…' : 'Keep'}
                  </button>
                </>
              )}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
