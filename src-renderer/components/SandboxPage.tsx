import { useEffect } from 'react';
import { useAppStore, useStoreApi } from '../state/store-context';
import { AlertIcon, ShieldIcon } from './icons';

/** Settings → Sandbox: whether agents' commands can run in the sandbox here (and if not, why), and what its wall allows. */
export function SandboxPage() {
  const store = useStoreApi();
  const sandbox = useAppStore((state) => state.sandbox);
  useEffect(() => {
    void store.getState().loadSandboxStatus();
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
          <li>Writes only in the session’s folder (its worktree’s own parts of .git), a private /tmp and package caches.</li>
          <li>Reads everything else except your keys and logins (~/.ssh, ~/.aws, ~/.gnupg, cloud and cluster logins, ~/.netrc, browser profiles) and Cairn’s data.</li>
          <li>.git/hooks, .git/config, .cairn and .claude/settings files stay read-only inside the folder.</li>
          <li>No network, and no signal to anything outside it.</li>
        </ul>
      </section>
    </div>
  );
}
