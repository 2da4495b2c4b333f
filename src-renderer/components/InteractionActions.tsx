import type { ReactNode } from 'react';
import type { InteractionFormState } from '../state/interactions-slice';
import { useStoreApi } from '../state/store-context';
import { Spinner } from './icons';

interface Secondary {
  readonly label: string;
  readonly action: 'decline' | 'cancel';
  readonly hint: string;
}

/**
 * Submit and its alternatives (Skip; for forms, Decline to fill in and Dismiss), each named for what
 * it does, with the host's refusal or a general problem beside them.
 */
export function InteractionActions({
  interactionId,
  form,
  general,
  invalid,
  submitLabel,
  secondary,
}: {
  interactionId: string;
  form: InteractionFormState;
  /** A problem with the answer as a whole. */
  general: string | null;
  /** Whether any field has a problem (shown once the person tried to submit). */
  invalid: boolean;
  submitLabel: string;
  secondary: readonly Secondary[];
}) {
  const store = useStoreApi();
  const message = form.error ?? general;
  return (
    <div className="interaction-actions">
      {message !== null ? (
        <p className="form-notice tone-error" role="alert" data-testid="interaction-error">
          {message}
        </p>
      ) : invalid ? (
        <p className="form-notice tone-error" role="alert">
          Check the answers marked above.
        </p>
      ) : (
        <span />
      )}
      <div className="interaction-buttons">
        {secondary.map((button) => (
          <button
            key={button.action}
            type="button"
            className="button button-quiet"
            title={button.hint}
            disabled={form.submitting}
            onClick={() => void store.getState().answerInteraction(interactionId, { action: button.action })}
          >
            {button.label}
          </button>
        ))}
        <button type="submit" className="button button-primary" disabled={form.submitting}>
          {form.submitting ? <Spinner /> : null}
          {submitLabel}
        </button>
      </div>
    </div>
  );
}

/** An approval's decision buttons, with the host's refusal beside them (approvals and network cards). */
export function DecisionActions({ error, children }: { error: string | null; children: ReactNode }) {
  return (
    <div className="interaction-actions">
      {error !== null ? (
        <p className="form-notice tone-error" role="alert" data-testid="interaction-error">
          {error}
        </p>
      ) : (
        <span />
      )}
      <div className="interaction-buttons">{children}</div>
    </div>
  );
}
