import { useState } from 'react';
import type { CodexThreadChoice } from '../../src-shared/codex-model';
import { useAppStore, useStoreApi } from '../state/store-context';
import { AlertIcon, RetryIcon } from './icons';

/**
 * Under the header while a Codex session's thread could not be resumed: Cairn did not move it to a
 * new thread on its own. The person chooses a new thread (started from a summary of the conversation)
 * or to retry the same one; the choice is recorded by the host, so it shows again after a reload.
 */
export function CodexThreadNotice({ sessionId }: { sessionId: string }) {
  const store = useStoreApi();
  const problem = useAppStore((state) => state.codexThreadProblems[sessionId]);
  const [choosing, setChoosing] = useState<CodexThreadChoice | null>(null);
  if (problem === undefined || problem.resolved) return null;
  const choose = (choice: CodexThreadChoice) => {
    setChoosing(choice);
    void store
      .getState()
      .chooseCodexThread(sessionId, problem.threadId, choice)
      .finally(() => setChoosing(null));
  };
  if (problem.choice === 'new_thread') {
    return (
      <div className="session-notice" role="status" data-testid="codex-thread-unavailable">
        <p>
          <strong>Starting a new Codex thread.</strong> The earlier turns are summarised from Cairn’s record and sent as
          its first input.
        </p>
      </div>
    );
  }
  return (
    <div className="session-notice" role="alert" data-testid="codex-thread-unavailable">
      <AlertIcon />
      <p>
        <strong>Codex could not resume this session’s thread.</strong> {problem.reason}. Cairn did not move to a new
        thread on its own.
        {problem.choice === 'retry' ? ' Retrying the same thread…' : ''}
      </p>
      <button
        type="button"
        className="button button-small"
        onClick={() => choose('new_thread')}
        disabled={choosing !== null}
      >
        {choosing === 'new_thread' ? 'Starting…' : 'Start a new Codex thread'}
      </button>
      <button
        type="button"
        className="button button-small button-quiet"
        onClick={() => choose('retry')}
        disabled={choosing !== null}
      >
        <RetryIcon />
        Keep waiting / retry
      </button>
    </div>
  );
}
