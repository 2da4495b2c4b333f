import type { MessageSearchHit, ModelSettings } from '../../../src-shared/chat-model';
import { fail, ok, type Outcome } from '../../../src-shared/errors';
import type { ExportFormat, SessionExport, SessionPreferences } from '../../../src-shared/operations/chat-operations';
import { WORKHUB_SESSION_ID } from '../../../src-shared/workhub-model';
import type { SecretVault } from '../../storage/secret-vault';
import type { Stores } from '../../storage/stores';
import type { ConnectionService } from '../connections/connection-service';
import type { Clock } from '../ports/ports';
import { ChatPreferences } from './chat-preferences';
import { exportSession } from './session-export';

export interface ChatServiceDeps {
  readonly stores: Stores;
  readonly vault: SecretVault;
  readonly clock: Clock;
  readonly connections: ConnectionService;
}

const DEFAULT_HIT_LIMIT = 30;

/** Finding what was said, instructions and model settings, and exports of a session. */
export class ChatService {
  readonly preferences: ChatPreferences;

  constructor(private readonly deps: ChatServiceDeps) {
    this.preferences = new ChatPreferences({
      preferences: deps.stores.chatPreferences,
      settings: deps.stores.settings,
    });
  }

  searchMessages(request: {
    query: string;
    includeArchived?: boolean;
    limit?: number;
  }): Outcome<{ hits: readonly MessageSearchHit[] }, never> {
    const words = request.query.split(/\s+/).filter((word) => word !== '');
    const hits = this.deps.stores.messageSearch.search({
      words,
      includeArchived: request.includeArchived ?? false,
      excludeSessionId: WORKHUB_SESSION_ID,
      limit: request.limit ?? DEFAULT_HIT_LIMIT,
    });
    return ok({ hits });
  }

  sessionPreferences(sessionId: string): Outcome<SessionPreferences, 'not_found'> {
    const session = this.deps.stores.sessions.get(sessionId);
    if (session === null) return missingSession();
    const own = this.preferences.session(sessionId);
    return ok({
      instructions: own.instructions,
      modelSettings: own.modelSettings,
      globalInstructions: this.preferences.globalInstructions(),
      connectionModelSettings: this.preferences.connection(session.connectionId),
    });
  }

  setSessionPreferences(request: {
    sessionId: string;
    instructions?: string;
    modelSettings?: ModelSettings;
  }): Outcome<SessionPreferences, 'not_found'> {
    if (this.deps.stores.sessions.get(request.sessionId) === null) return missingSession();
    this.preferences.setSession(
      request.sessionId,
      {
        ...(request.instructions === undefined ? {} : { instructions: request.instructions }),
        ...(request.modelSettings === undefined ? {} : { modelSettings: request.modelSettings }),
      },
      this.deps.clock.now(),
    );
    return this.sessionPreferences(request.sessionId);
  }

  connectionModelSettings(connectionId: string): Outcome<{ modelSettings: ModelSettings }, 'not_found'> {
    if (this.deps.connections.get(connectionId) === null) return missingConnection();
    return ok({ modelSettings: this.preferences.connection(connectionId) });
  }

  setConnectionModelSettings(
    connectionId: string,
    modelSettings: ModelSettings,
  ): Outcome<{ modelSettings: ModelSettings }, 'not_found'> {
    if (this.deps.connections.get(connectionId) === null) return missingConnection();
    this.preferences.setConnection(connectionId, modelSettings, this.deps.clock.now());
    return this.connectionModelSettings(connectionId);
  }

  exportSession(sessionId: string, format: ExportFormat): Outcome<SessionExport, 'not_found'> {
    const { stores } = this.deps;
    const session = sessionId === WORKHUB_SESSION_ID ? null : stores.sessions.get(sessionId);
    if (session === null) return missingSession();
    const items = stores.transcript.all(sessionId);
    const turnIds = [...new Set(items.map((item) => item.turnId))];
    const own = this.preferences.session(sessionId);
    const record = {
      session,
      connectionName: this.deps.connections.get(session.connectionId)?.name ?? session.connectionId,
      instructions: own.instructions,
      modelSettings: own.modelSettings,
      items,
      turns: stores.turns.turnsByIds(sessionId, turnIds),
      usage: stores.usage.summary({ by: 'session', sessionId }).totals,
    };
    return ok(exportSession(record, format, this.knownSecrets(), this.deps.clock.now()));
  }

  /** Every API key Cairn holds: an export masks each wherever it occurs. */
  private knownSecrets(): string[] {
    const secrets: string[] = [];
    for (const connection of this.deps.stores.connections.list()) {
      const secret = connection.secretId === null ? null : this.deps.vault.get(connection.secretId);
      if (secret !== null && secret !== '') secrets.push(secret);
    }
    return secrets;
  }
}

function missingSession() {
  return fail('not_found', 'That session does not exist.');
}

function missingConnection() {
  return fail('not_found', 'That connection does not exist.');
}
