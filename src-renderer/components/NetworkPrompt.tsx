import type { NetworkDecision, NetworkRequest } from '../../src-shared/interaction-model';
import { EMPTY_FORM } from '../state/interactions-slice';
import { useAppStore, useStoreApi } from '../state/store-context';
import { Spinner } from './icons';
import { DecisionActions } from './InteractionActions';

/**
 * A sandboxed command asked for a host not on the allowlist and was refused. The command has failed
 * already; this decides what the agent's next try may reach: the next command only, this session's
 * commands, every session's (Settings → Sandbox), or not. Like an approval, it never takes focus and
 * no key allows.
 */
export function NetworkPrompt({ interactionId, request }: { interactionId: string; request: NetworkRequest }) {
  const store = useStoreApi();
  const form = useAppStore((state) => state.interactionForms[interactionId] ?? EMPTY_FORM);
  const decide = (network: NetworkDecision) =>
    void store
      .getState()
      .answerInteraction(interactionId, network === 'deny' ? { action: 'deny' } : { action: 'accept', network });
  return (
    <div className="permission network-permission">
      <p className="permission-summary">
        A command in the sandbox tried to reach <strong>{request.host}</strong>
        {request.port === 443 || request.port === 80 ? '' : ` (port ${request.port})`} and was blocked. Allowed, the
        agent’s next try gets through.
      </p>
      <DecisionActions error={form.error}>
        <button
          type="button"
          className="button button-quiet danger-text"
          disabled={form.submitting}
          onClick={() => decide('deny')}
        >
          Deny
        </button>
        <button
          type="button"
          className="button"
          disabled={form.submitting}
          title="Every session's commands may reach this host (Settings → Sandbox)."
          onClick={() => decide('allow_always')}
        >
          Always
        </button>
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
