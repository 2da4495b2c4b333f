import type { PermissionDecision, PermissionRequest } from '../../src-shared/interaction-model';
import { EMPTY_FORM } from '../state/interactions-slice';
import { selectRunsOnCodex } from '../state/selectors';
import { useAppStore, useStoreApi } from '../state/store-context';
import { AlertIcon, ShieldIcon, Spinner } from './icons';
import { DecisionActions } from './InteractionActions';
import { DiffLines } from './workspace/DiffLines';
import { McpCallPreview } from './mcp/McpCallPreview';

/**
 * Approval of a tool call that changes something: what it will do (the diff, or the exact command and
 * where it runs), then Allow once, Allow for this session, or Deny with an optional reason.
 * It never takes keyboard focus when it appears and has no key that approves: a stray Space or Enter
 * meant for something else must not run a command or write a file. Approving is always a click (or
 * Tab to the button and a key press, which is a deliberate act).
 */
export function PermissionPrompt({
  interactionId,
  sessionId,
  request,
}: {
  interactionId: string;
  sessionId: string;
  request: PermissionRequest;
}) {
  const store = useStoreApi();
  const form = useAppStore((state) => state.interactionForms[interactionId] ?? EMPTY_FORM);
  // Codex asks only for what goes beyond its own sandbox: a command it asks about runs outside it.
  const codex = useAppStore(selectRunsOnCodex(sessionId));
  // Cairn's own commands run in the sandbox once allowed, where there is one; running one outside it is its own choice.
  const sandboxed =
    useAppStore((state) => state.sandbox?.available ?? false) && request.toolName === 'run_shell' && !codex;
  const decide = (decision: PermissionDecision) => {
    const reason = form.reason.trim();
    void store
      .getState()
      .answerInteraction(
        interactionId,
        decision === 'deny' ? { action: 'deny', ...(reason !== '' ? { reason } : {}) } : { action: 'accept', decision },
      );
  };

  const preview = request.preview;
  return (
    <div className="permission">
      <p className="permission-summary">
        <code>{request.toolName}</code> wants to: <strong>{request.summary}</strong>
      </p>
      {preview.kind === 'diff' ? (
        <figure className="diff-view">
          <figcaption className="diff-path">{preview.path}</figcaption>
          <DiffLines diff={preview.diff} label={`Changes to ${preview.path}`} />
        </figure>
      ) : preview.kind === 'mcp' ? (
        <McpCallPreview server={preview.server} tool={preview.tool} args={preview.arguments} />
      ) : (
        <figure className="command-view">
          <pre className="command-line" aria-label="Command">
            <span className="command-prompt" aria-hidden="true">
              ${' '}
            </span>
            {preview.command}
          </pre>
          {preview.cwd !== '' ? (
            <figcaption className="command-cwd">
              in <code>{preview.cwd}</code>
            </figcaption>
          ) : null}
        </figure>
      )}
      {preview.kind === 'command' && sandboxed ? (
        <p className="permission-note is-sandboxed">
          <ShieldIcon />
          Allowed, it runs in the sandbox: it writes only in the workspace and /tmp, cannot read your keys or logins,
          and reaches only the network hosts you allow.
        </p>
      ) : preview.kind === 'command' && codex && request.toolName === 'run_shell' ? (
        <p className="permission-note">
          <AlertIcon />
          Codex asks to run this outside its sandbox: allowed, it runs on your computer as you and can write anywhere,
          read your keys and reach the network.
        </p>
      ) : preview.kind === 'command' ? (
        <p className="permission-note">
          <AlertIcon />
          Shell commands run on your computer as you, without a sandbox. Allow only what you would run yourself.
        </p>
      ) : null}
      <div className="field permission-reason">
        <label className="field-label" htmlFor={`${interactionId}-reason`}>
          Reason for denying <span className="field-optional">(optional, sent to the agent)</span>
        </label>
        {request.reasonNote === undefined ? null : (
          <p className="field-hint" data-testid="reason-note">
            {request.reasonNote}
          </p>
        )}
        <input
          id={`${interactionId}-reason`}
          className="input"
          type="text"
          value={form.reason}
          disabled={form.submitting}
          onChange={(event) => store.getState().editReason(interactionId, event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              decide('deny');
            }
          }}
        />
      </div>
      <DecisionActions error={form.error}>
        <button
          type="button"
          className="button button-quiet danger-text"
          disabled={form.submitting}
          onClick={() => decide('deny')}
        >
          Deny
        </button>
        {preview.kind === 'command' && sandboxed ? (
          <button
            type="button"
            className="button danger-text"
            disabled={form.submitting}
            title="Runs this command once as you, outside the sandbox: it can write anywhere, read your keys and reach the network."
            onClick={() => decide('allow_once_unsandboxed')}
          >
            <AlertIcon />
            Run once without sandbox
          </button>
        ) : null}
        <button type="button" className="button" disabled={form.submitting} onClick={() => decide('allow_session')}>
          Allow for this session
        </button>
        <button
          type="button"
          className="button button-primary"
          disabled={form.submitting}
          onClick={() => decide('allow_once')}
        >
          {form.submitting ? <Spinner /> : null}
          Allow once
        </button>
      </DecisionActions>
    </div>
  );
}
