import { fail, ok, type Outcome } from '../../../src-shared/errors';
import type { PermissionGrantsResult } from '../../../src-shared/operations';
import type { Stores } from '../../storage/stores';
import type { Clock } from '../ports/ports';

export interface GrantServiceDeps {
  readonly stores: Pick<Stores, 'sessions' | 'interactions'>;
  readonly clock: Clock;
  /** The session's own network allowlist. */
  readonly hosts: {
    sessionHosts(sessionId: string): string[];
    removeSessionHost(sessionId: string, host: string): unknown;
  };
}

/** The "Allow for this session" grants of a session: which tools run there without asking, and taking them back. */
export class GrantService {
  constructor(private readonly deps: GrantServiceDeps) {}

  list(sessionId: string): Outcome<PermissionGrantsResult, 'not_found'> {
    if (this.deps.stores.sessions.get(sessionId) === null) return fail('not_found', 'That session does not exist.');
    return ok({
      sessionId,
      grants: this.deps.stores.interactions.grantsOfSession(sessionId),
      hosts: this.deps.hosts.sessionHosts(sessionId),
    });
  }

  /** After this, the session's next command reaching the host is blocked (and asks) again. */
  removeHost(sessionId: string, host: string): Outcome<PermissionGrantsResult, 'not_found'> {
    if (this.deps.stores.sessions.get(sessionId) === null) return fail('not_found', 'That session does not exist.');
    this.deps.hosts.removeSessionHost(sessionId, host);
    return this.list(sessionId);
  }

  /** After this, the tool's next call in the session asks again (a call already running is not stopped). */
  revoke(sessionId: string, toolName: string): Outcome<PermissionGrantsResult, 'not_found'> {
    if (this.deps.stores.sessions.get(sessionId) === null) return fail('not_found', 'That session does not exist.');
    this.deps.stores.interactions.revokeGrant(sessionId, toolName, this.deps.clock.now());
    return this.list(sessionId);
  }
}
