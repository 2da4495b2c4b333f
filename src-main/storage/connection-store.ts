import type {
  AcpAgentCommand,
  ConnectionLastTest,
  ConnectionRecord,
  ConnectionVerdict,
  ModelInfo,
  ProviderType,
} from '../../src-shared/connection-model';
import type { Db } from './database';

export interface NewConnection {
  readonly connectionId: string;
  readonly name: string;
  readonly providerType: ProviderType;
  readonly baseUrl: string | null;
  readonly enabledModelIds: readonly string[];
  readonly secretId: string | null;
  readonly firstTokenTimeoutSeconds: number;
  readonly idleTimeoutSeconds: number;
  readonly codexBinary: string | null;
  readonly acpAgent: AcpAgentCommand | null;
  readonly now: number;
}

export interface ConnectionChanges {
  readonly name?: string;
  readonly baseUrl?: string | null;
  readonly enabled?: boolean;
  readonly enabledModelIds?: readonly string[];
  readonly secretId?: string | null;
  readonly firstTokenTimeoutSeconds?: number;
  readonly idleTimeoutSeconds?: number;
  readonly codexBinary?: string | null;
  readonly acpAgent?: AcpAgentCommand;
  readonly models?: { readonly models: readonly ModelInfo[]; readonly fetchedAt: number };
}

/** A stored connection with the id of its secret (the key itself lives in the secret vault). */
export type StoredConnection = Omit<ConnectionRecord, 'hasApiKey' | 'builtIn' | 'providerType'> & {
  readonly providerType: ProviderType;
  readonly secretId: string | null;
};

/** The connection catalog. Every change bumps the connection's revision. */
export interface ConnectionStore {
  insert(connection: NewConnection): StoredConnection;
  get(connectionId: string): StoredConnection | null;
  list(): StoredConnection[];
  update(connectionId: string, changes: ConnectionChanges, now: number): StoredConnection;
  remove(connectionId: string): boolean;
  /** Keeps a Test's result on the connection. Not an edit: the revision stays, so an open editor is not made stale. */
  recordTest(connectionId: string, test: ConnectionLastTest): boolean;
}

interface ConnectionRow {
  connection_id: string;
  name: string;
  provider_type: ProviderType;
  base_url: string | null;
  enabled: number;
  enabled_model_ids: string;
  models: string;
  models_fetched_at: number | null;
  secret_id: string | null;
  first_token_timeout_seconds: number;
  idle_timeout_seconds: number;
  codex_binary: string | null;
  acp_agent: string | null;
  last_test_at: number | null;
  last_test_verdict: ConnectionVerdict | null;
  last_test_message: string | null;
  last_test_latency_ms: number | null;
  revision: number;
  created_at: number;
  updated_at: number;
}

function toStored(row: ConnectionRow): StoredConnection {
  return {
    connectionId: row.connection_id,
    name: row.name,
    providerType: row.provider_type,
    baseUrl: row.base_url,
    enabled: row.enabled === 1,
    enabledModelIds: JSON.parse(row.enabled_model_ids) as string[],
    models: JSON.parse(row.models) as ModelInfo[],
    modelsFetchedAt: row.models_fetched_at,
    secretId: row.secret_id,
    firstTokenTimeoutSeconds: row.first_token_timeout_seconds,
    idleTimeoutSeconds: row.idle_timeout_seconds,
    codexBinary: row.codex_binary,
    acpAgent: row.acp_agent === null ? null : (JSON.parse(row.acp_agent) as AcpAgentCommand),
    lastTest: lastTestOf(row),
    revision: row.revision,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function lastTestOf(row: ConnectionRow): ConnectionLastTest | null {
  if (row.last_test_at === null || row.last_test_verdict === null) return null;
  return {
    testedAt: row.last_test_at,
    verdict: row.last_test_verdict,
    message: row.last_test_message ?? '',
    latencyMs: row.last_test_latency_ms ?? 0,
  };
}

export function createConnectionStore(db: Db): ConnectionStore {
  const insert = db.prepare(`
    INSERT INTO connections (connection_id, name, provider_type, base_url, enabled, enabled_model_ids, models,
                             models_fetched_at, secret_id, first_token_timeout_seconds, idle_timeout_seconds, codex_binary, acp_agent, revision, created_at, updated_at)
    VALUES (@connectionId, @name, @providerType, @baseUrl, 1, @enabledModelIds, '[]', NULL, @secretId, @firstTokenTimeoutSeconds, @idleTimeoutSeconds, @codexBinary, @acpAgent, 1, @now, @now)`);
  const get = db.prepare<[string], ConnectionRow>('SELECT * FROM connections WHERE connection_id = ?');
  const list = db.prepare<[], ConnectionRow>('SELECT * FROM connections ORDER BY created_at, connection_id');
  const update = db.prepare(`
    UPDATE connections SET name = @name, base_url = @baseUrl, enabled = @enabled, enabled_model_ids = @enabledModelIds,
      models = @models, models_fetched_at = @modelsFetchedAt, secret_id = @secretId,
      first_token_timeout_seconds = @firstTokenTimeoutSeconds, idle_timeout_seconds = @idleTimeoutSeconds, codex_binary = @codexBinary, acp_agent = @acpAgent, revision = revision + 1, updated_at = @now
    WHERE connection_id = @connectionId`);
  const remove = db.prepare('DELETE FROM connections WHERE connection_id = ?');
  const recordTest = db.prepare(`
    UPDATE connections SET last_test_at = @testedAt, last_test_verdict = @verdict, last_test_message = @message, last_test_latency_ms = @latencyMs
    WHERE connection_id = @connectionId`);

  const store: ConnectionStore = {
    insert(connection) {
      insert.run({
        ...connection,
        enabledModelIds: JSON.stringify(connection.enabledModelIds),
        acpAgent: connection.acpAgent === null ? null : JSON.stringify(connection.acpAgent),
      });
      const stored = store.get(connection.connectionId);
      if (stored === null) throw new Error(`Connection ${connection.connectionId} vanished after insert`);
      return stored;
    },
    get(connectionId) {
      const row = get.get(connectionId);
      return row === undefined ? null : toStored(row);
    },
    list() {
      return list.all().map(toStored);
    },
    update(connectionId, changes, now) {
      const current = store.get(connectionId);
      if (current === null) throw new Error(`Connection ${connectionId} does not exist`);
      update.run({
        connectionId,
        name: changes.name ?? current.name,
        baseUrl: changes.baseUrl === undefined ? current.baseUrl : changes.baseUrl,
        enabled: (changes.enabled ?? current.enabled) ? 1 : 0,
        enabledModelIds: JSON.stringify(changes.enabledModelIds ?? current.enabledModelIds),
        models: JSON.stringify(changes.models?.models ?? current.models),
        modelsFetchedAt: changes.models?.fetchedAt ?? current.modelsFetchedAt,
        secretId: changes.secretId === undefined ? current.secretId : changes.secretId,
        firstTokenTimeoutSeconds: changes.firstTokenTimeoutSeconds ?? current.firstTokenTimeoutSeconds,
        idleTimeoutSeconds: changes.idleTimeoutSeconds ?? current.idleTimeoutSeconds,
        codexBinary: changes.codexBinary === undefined ? current.codexBinary : changes.codexBinary,
        acpAgent: JSON.stringify(changes.acpAgent ?? current.acpAgent),
        now,
      });
      const updated = store.get(connectionId);
      if (updated === null) throw new Error(`Connection ${connectionId} vanished after update`);
      return updated;
    },
    remove(connectionId) {
      return remove.run(connectionId).changes > 0;
    },
    recordTest(connectionId, test) {
      return recordTest.run({ connectionId, ...test }).changes > 0;
    },
  };
  return store;
}
