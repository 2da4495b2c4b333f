import type { PermissionGrant } from '../../../src-shared/interaction-model';
import { useAppStore, useStoreApi } from '../../state/store-context';

const NO_GRANTS: readonly PermissionGrant[] = [];
const NO_HOSTS: readonly string[] = [];

/** What each tool's grant lets the agent do, in words. */
function grantScope(grant: PermissionGrant): string {
  switch (grant.toolName) {
    case 'run_shell':
      return 'any shell command';
    case 'write_file':
      return 'write any file in the folder';
    case 'edit_file':
      return 'edit any file in the folder';
    default:
      return `use ${grant.toolName}`;
  }
}

/** The session's grants, each with what it allows and Revoke, and its allowed hosts with Remove (GrantsList shows them while there is one). */
export function GrantRows({ sessionId, toolGrants }: { sessionId: string; toolGrants: boolean }) {
  const store = useStoreApi();
  const grants = useAppStore((state) => state.grants[sessionId] ?? NO_GRANTS);
  const hosts = useAppStore((state) => state.sessionHosts[sessionId] ?? NO_HOSTS);
  const archived = useAppStore((state) => state.sessions.byId[sessionId]?.archived ?? false);

  const shownGrants = toolGrants ? grants : NO_GRANTS;
  if (shownGrants.length === 0 && hosts.length === 0) return null;
  return (
    <>
      {shownGrants.length === 0 ? null : <ToolGrants sessionId={sessionId} grants={shownGrants} archived={archived} />}
      {hosts.length === 0 ? null : (
        <div className="grants" data-testid="session-hosts">
          <span className="grants-label">Network allowed in this session:</span>
          <ul className="grants-list">
            {hosts.map((host) => (
              <li key={host} className="grant" data-testid="session-host" data-host={host}>
                <code>{host}</code>
                {archived ? null : (
                  <button
                    type="button"
                    className="text-button grant-revoke"
                    aria-label={`Remove ${host}: block it again in this session`}
                    title="Block this host again in this session"
                    onClick={() => void store.getState().removeSessionHost(sessionId, host)}
                  >
                    Remove
                  </button>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
}

function ToolGrants({
  sessionId,
  grants,
  archived,
}: {
  sessionId: string;
  grants: readonly PermissionGrant[];
  archived: boolean;
}) {
  const store = useStoreApi();
  return (
    <div className="grants" data-testid="grants">
      <span className="grants-label">Allowed without asking in this session:</span>
      <ul className="grants-list">
        {grants.map((grant) => (
          <li key={grant.toolName} className="grant" data-testid="grant" data-tool={grant.toolName}>
            <code>{grant.toolName}</code>
            <span className="grant-scope" title={`First allowed for: ${grant.example}`}>
              {grantScope(grant)}
            </span>
            {archived ? null : (
              <button
                type="button"
                className="text-button grant-revoke"
                aria-label={`Revoke ${grant.toolName}: ask again before it runs`}
                title="Ask again before this tool runs"
                onClick={() => void store.getState().revokeGrant(sessionId, grant.toolName)}
              >
                Revoke
              </button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
