import { useEffect, useId, useState } from 'react';
import type { SandboxSettingsResult } from '../../src-shared/operations/permission-operations';
import { useAppStore, useStoreApi } from '../state/store-context';
import { FieldFrame } from './FieldFrame';
import { AlertIcon, ShieldIcon } from './icons';

/**
 * Settings → Sandbox: whether agents' commands can run in the sandbox here (and if not, why), what
 * its wall allows, and the person's lists: hosts every session may reach, extra writable folders,
 * extra denied paths.
 */
export function SandboxPage() {
  const store = useStoreApi();
  const sandbox = useAppStore((state) => state.sandbox);
  const settings = useAppStore((state) => state.sandboxSettings);
  useEffect(() => {
    void store.getState().loadSandboxStatus();
    void store.getState().loadSandboxSettings();
  }, [store]);
  return (
    <div className="sandbox-page" data-testid="sandbox-settings">
      <section className="settings-section" aria-labelledby="sandbox-availability">
        <h4 id="sandbox-availability">Availability</h4>
        {sandbox === null ? (
          <p className="settings-note">Checking…</p>
        ) : sandbox.available ? (
          <p className="sandbox-status is-available" data-testid="sandbox-status">
            <ShieldIcon />
            Available: new sessions start in Auto, and commands run in the sandbox in Auto and Ask.
          </p>
        ) : (
          <p className="sandbox-status" data-testid="sandbox-status">
            <AlertIcon />
            Not available here: {sandbox.reason} New sessions start in Ask, and Auto cannot be chosen.
          </p>
        )}
      </section>
      <section className="settings-section" aria-labelledby="sandbox-wall">
        <h4 id="sandbox-wall">What the wall allows</h4>
        <ul className="settings-note sandbox-rules">
          <li>
            Writes only in the session’s folder (its worktree’s own parts of .git), a private /tmp and package caches.
          </li>
          <li>
            Reads everything else except your keys and logins (~/.ssh, ~/.aws, ~/.gnupg, cloud and cluster logins,
            ~/.netrc, browser profiles) and Cairn’s data.
          </li>
          <li>.git/hooks, .git/config, .cairn and .claude/settings files stay read-only inside the folder.</li>
          <li>
            Network only through Cairn’s proxy, to the hosts allowed below or by a session; never Cairn’s own port. No
            signal to anything outside it.
          </li>
        </ul>
      </section>
      {settings === null ? null : <SandboxListsForm saved={settings} />}
    </div>
  );
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

/** The three lists, one entry a line. Saved together; a wrong entry saves nothing and is named. */
function SandboxListsForm({ saved }: { saved: SandboxSettingsResult }) {
  const store = useStoreApi();
  const id = useId();
  const [drafts, setDrafts] = useState({
    allowedHosts: saved.allowedHosts.join('\n'),
    writableFolders: saved.writableFolders.join('\n'),
    deniedPaths: saved.deniedPaths.join('\n'),
  });
  const [state, setState] = useState<{ kind: 'idle' | 'saving' | 'saved' } | { kind: 'error'; message: string }>({
    kind: 'idle',
  });
  const edit = (field: keyof typeof drafts) => (event: { target: { value: string } }) => {
    setDrafts((current) => ({ ...current, [field]: event.target.value }));
    setState({ kind: 'idle' });
  };
  const fields: { field: keyof typeof drafts; label: string; help: string; placeholder: string }[] = [
    {
      field: 'allowedHosts',
      label: 'Allowed hosts',
      help: 'Every session’s commands may reach these: an exact host, *.domain for its subdomains, or an IPv4 address, each with an optional :port.',
      placeholder: 'registry.npmjs.org\n*.pythonhosted.org\napi.internal:8443',
    },
    {
      field: 'writableFolders',
      label: 'Extra writable folders',
      help: 'Absolute paths commands may write beside the workspace. None may be, hold or lie inside a denied path or Cairn’s data.',
      placeholder: '/srv/build-output',
    },
    {
      field: 'deniedPaths',
      label: 'Extra denied paths',
      help: 'Absolute paths hidden from commands, beside the built-in list.',
      placeholder: '/srv/secrets',
    },
  ];
  return (
    <form
      className="settings-section sandbox-lists"
      aria-labelledby={`${id}-lists`}
      onSubmit={(event) => {
        event.preventDefault();
        setState({ kind: 'saving' });
        void store
          .getState()
          .saveSandboxSettings({
            allowedHosts: lines(drafts.allowedHosts),
            writableFolders: lines(drafts.writableFolders),
            deniedPaths: lines(drafts.deniedPaths),
          })
          .then((message) => setState(message === null ? { kind: 'saved' } : { kind: 'error', message }));
      }}
    >
      <h4 id={`${id}-lists`}>Your lists</h4>
      {fields.map(({ field, label, help, placeholder }) => (
        <FieldFrame key={field} controlId={`${id}-${field}`} label={label} help={help}>
          {(aria) => (
            <textarea
              {...aria}
              className="input textarea"
              data-testid={`sandbox-${field}`}
              rows={3}
              spellCheck={false}
              value={drafts[field]}
              placeholder={placeholder}
              onChange={edit(field)}
            />
          )}
        </FieldFrame>
      ))}
      <div className="dialog-actions">
        {state.kind === 'error' ? (
          <p className="form-notice tone-error" role="alert" data-testid="sandbox-settings-error">
            {state.message} Nothing was saved.
          </p>
        ) : (
          <span role="status" className="instructions-status">
            {state.kind === 'saved' ? 'Saved. The next command uses these lists.' : ''}
          </span>
        )}
        <button type="submit" className="button button-primary" disabled={state.kind === 'saving'}>
          Save lists
        </button>
      </div>
    </form>
  );
}
