import { useEffect, useId, useRef, useState } from 'react';
import type { ConnectionRecord, ProviderType } from '../../../src-shared/connection-model';
import { PROVIDER_TYPES } from '../../../src-shared/connection-model';
import type { ConnectionDraft, ConnectionField, ConnectionProblems } from '../../forms/connection-form';
import {
  createInput,
  draftOf,
  emptyDraft,
  hasProblems,
  PROVIDERS,
  updateInput,
  validateConnectionDraft,
  withProvider,
} from '../../forms/connection-form';
import { useStoreApi } from '../../state/store-context';
import { ChoiceCards } from '../ChoiceCards';
import { Spinner } from '../icons';
import { AcpFields } from './AcpFields';
import { CodexFields } from './CodexFields';
import type { ConnectionFieldsProps } from './connection-fields-props';
import { ModelProviderFields } from './ModelProviderFields';
import { TimeoutFields } from './TimeoutFields';

type Notice = { readonly tone: 'ok' | 'error'; readonly text: string } | null;

const PROVIDER_CHOICES = PROVIDER_TYPES.map((type) => ({
  value: type,
  label: PROVIDERS[type].label,
  blurb: PROVIDERS[type].blurb,
}));

/** Each provider kind's own fields, between the provider choice and the timeouts. */
function ProviderFields(props: ConnectionFieldsProps) {
  switch (props.draft.providerType) {
    case 'acp':
      return <AcpFields {...props} />;
    case 'codex':
      return <CodexFields {...props} />;
    default:
      return <ModelProviderFields {...props} />;
  }
}

/**
 * The add/edit form of a connection, the shell around each provider kind's fields: the provider choice
 * (when adding), the timeouts every kind shares, Submit and what came of it. The key is write-only: a
 * stored one shows as "•••• stored" and can be replaced or removed, never read.
 */
export function ConnectionEditor({ connection }: { connection: ConnectionRecord | null }) {
  const store = useStoreApi();
  const formId = useId();
  const [draft, setDraft] = useState<ConnectionDraft>(() => (connection === null ? emptyDraft() : draftOf(connection)));
  const [base, setBase] = useState(connection);
  const [attempted, setAttempted] = useState(false);
  const [touched, setTouched] = useState<ReadonlySet<ConnectionField>>(new Set());
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const noticeRef = useRef<HTMLParagraphElement>(null);
  // A refused add or save says why where focus is: the Submit button went disabled while it waited.
  useEffect(() => {
    if (notice?.tone === 'error') noticeRef.current?.focus();
  }, [notice]);

  // The record changed under the form (a save, another window): an untouched form follows it. A form
  // being edited keeps the revision it started from, so saving over a newer record is refused (and said).
  if (connection !== base && (base === null || connection === null || sameDraft(draft, draftOf(base)))) {
    if (connection !== null) setDraft(draftOf(connection));
    setBase(connection);
  }

  const problems = validateConnectionDraft(draft, { requireKey: connection === null });
  const shown: ConnectionProblems = attempted
    ? problems
    : Object.fromEntries(Object.entries(problems).filter(([field]) => touched.has(field as ConnectionField)));
  const adding = connection === null;
  const actions = store.getState();
  const reshape = (update: (current: ConnectionDraft) => ConnectionDraft) => {
    setDraft(update);
    setNotice(null);
  };

  async function submit() {
    if (hasProblems(problems)) {
      setAttempted(true);
      // The invalid markers render with this state change; focus the first one once they are there.
      requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    setBusy(true);
    if (connection === null) {
      const created = await actions.createConnection(createInput(draft));
      setBusy(false);
      if (!created.ok) return setNotice({ tone: 'error', text: created.message });
      actions.openSettings({ tab: 'connections', connectionId: created.connection.connectionId });
      // A new connection's first useful step: read what models it offers.
      void actions.fetchModels(created.connection.connectionId);
      return;
    }
    const input = updateInput(base ?? connection, draft);
    if (input === null) {
      setBusy(false);
      return setNotice({ tone: 'ok', text: 'Nothing to save.' });
    }
    const outcome = await actions.updateConnection(input);
    setBusy(false);
    setNotice(outcome.ok ? { tone: 'ok', text: 'Saved.' } : { tone: 'error', text: outcome.message });
    // Saved, or refused as stale (the catalog was re-read): the form shows the record as it is now.
    if (outcome.ok || outcome.conflict) setBase(null);
  }

  async function removeKey() {
    if (connection === null) return;
    setBusy(true);
    const outcome = await actions.updateConnection({
      connectionId: connection.connectionId,
      expectedRevision: connection.revision,
      apiKey: null,
    });
    setBusy(false);
    if (!outcome.ok && outcome.conflict) setBase(null);
    setNotice(
      outcome.ok ? { tone: 'ok', text: 'The stored key was removed.' } : { tone: 'error', text: outcome.message },
    );
  }

  const fields: ConnectionFieldsProps = {
    formId,
    draft,
    shown,
    connection,
    busy,
    change: (patch) => reshape((current) => ({ ...current, ...patch })),
    touch: (field) => setTouched((current) => new Set(current).add(field)),
    reshape,
    removeKey: () => void removeKey(),
  };
  return (
    <form
      ref={formRef}
      className="connection-form"
      aria-label={adding ? 'Add a connection' : `Edit ${connection.name}`}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {adding ? (
        <>
          <h3 className="settings-heading">Add a connection</h3>
          <ChoiceCards
            legend="Provider"
            name={`${formId}-provider`}
            choices={PROVIDER_CHOICES}
            checked={draft.providerType}
            onChoose={(type: ProviderType) => reshape((current) => withProvider(current, type))}
          />
        </>
      ) : null}
      <ProviderFields {...fields} />
      <TimeoutFields {...fields} />
      <div className="form-actions">
        {notice !== null ? (
          <p
            ref={noticeRef}
            tabIndex={-1}
            className={`form-notice tone-${notice.tone}`}
            role={notice.tone === 'error' ? 'alert' : 'status'}
            data-testid="connection-notice"
          >
            {notice.text}
          </p>
        ) : (
          <span />
        )}
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? <Spinner /> : null}
          {adding ? 'Add connection' : 'Save changes'}
        </button>
      </div>
    </form>
  );
}

function sameDraft(a: ConnectionDraft, b: ConnectionDraft): boolean {
  return (Object.keys(a) as Array<keyof ConnectionDraft>).every((key) => a[key] === b[key]);
}
