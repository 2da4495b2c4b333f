import type { McpTransport } from '../../src-shared/mcp-model';
import type { Db } from './database';

/** A stored environment variable or header: a secret one has no value here (it is in the vault). */
export interface StoredMcpSetting {
  readonly name: string;
  readonly secret: boolean;
  readonly value: string | null;
}

export interface StoredMcpServer {
  readonly serverId: string;
  readonly name: string;
  readonly transport: McpTransport;
  readonly command: string | null;
  readonly args: readonly string[];
  readonly cwd: string | null;
  readonly env: readonly StoredMcpSetting[];
  readonly url: string | null;
  readonly headers: readonly StoredMcpSetting[];
  readonly enabled: boolean;
  readonly revision: number;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export type NewMcpServer = Omit<StoredMcpServer, 'revision' | 'createdAt' | 'updatedAt'>;
export type McpServerChanges = Partial<
  Omit<StoredMcpServer, 'serverId' | 'transport' | 'revision' | 'createdAt' | 'updatedAt'>
>;

/** The MCP server catalog (every change bumps the server's revision) and each session's choice of servers. */
export interface McpServerStore {
  insert(server: NewMcpServer, now: number): StoredMcpServer;
  get(serverId: string): StoredMcpServer | null;
  byName(name: string): StoredMcpServer | null;
  list(): StoredMcpServer[];
  update(serverId: string, changes: McpServerChanges, now: number): StoredMcpServer;
  remove(serverId: string): boolean;
  /** The servers a session has turned on or off (servers not listed follow their default: on). */
  sessionChoices(sessionId: string): ReadonlyMap<string, boolean>;
  setSessionChoice(sessionId: string, serverId: string, on: boolean): void;
}

interface McpServerRow {
  server_id: string;
  name: string;
  transport: McpTransport;
  command: string | null;
  args: string;
  cwd: string | null;
  env: string;
  url: string | null;
  headers: string;
  enabled: number;
  revision: number;
  created_at: number;
  updated_at: number;
}

/** Only names and plain values reach the database: a secret's value is dropped here whatever the caller passed. */
function settingsJson(settings: readonly StoredMcpSetting[]): string {
  return JSON.stringify(
    settings.map((setting) => ({
      name: setting.name,
      secret: setting.secret,
      value: setting.secret ? null : setting.value,
    })),
  );
}

function toStored(row: McpServerRow): StoredMcpServer {
  return {
    serverId: row.server_id,
    name: row.name,
    transport: row.transport,
    command: row.command,
    args: JSON.parse(row.args) as string[],
    cwd: row.cwd,
    env: JSON.parse(row.env) as StoredMcpSetting[],
    url: row.url,
    headers: JSON.parse(row.headers) as StoredMcpSetting[],
    enabled: row.enabled === 1,
    revision: row.revision,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function createMcpServerStore(db: Db): McpServerStore {
  const insert = db.prepare(`
    INSERT INTO mcp_servers (server_id, name, transport, command, args, cwd, env, url, headers, enabled, revision, created_at, updated_at)
    VALUES (@serverId, @name, @transport, @command, @args, @cwd, @env, @url, @headers, @enabled, 1, @now, @now)`);
  const get = db.prepare<[string], McpServerRow>('SELECT * FROM mcp_servers WHERE server_id = ?');
  const byName = db.prepare<[string], McpServerRow>('SELECT * FROM mcp_servers WHERE name = ? COLLATE NOCASE');
  const list = db.prepare<[], McpServerRow>('SELECT * FROM mcp_servers ORDER BY created_at, server_id');
  const update = db.prepare(`
    UPDATE mcp_servers SET name = @name, command = @command, args = @args, cwd = @cwd, env = @env, url = @url, headers = @headers,
      enabled = @enabled, revision = revision + 1, updated_at = @now
    WHERE server_id = @serverId`);
  const remove = db.prepare('DELETE FROM mcp_servers WHERE server_id = ?');
  const choices = db.prepare<[string], { server_id: string; is_on: number }>(
    'SELECT server_id, is_on FROM mcp_session_servers WHERE session_id = ?',
  );
  const setChoice = db.prepare(`
    INSERT INTO mcp_session_servers (session_id, server_id, is_on) VALUES (?, ?, ?)
    ON CONFLICT (session_id, server_id) DO UPDATE SET is_on = excluded.is_on`);

  const store: McpServerStore = {
    insert(server, now) {
      insert.run({
        ...server,
        args: JSON.stringify(server.args),
        env: settingsJson(server.env),
        headers: settingsJson(server.headers),
        enabled: server.enabled ? 1 : 0,
        now,
      });
      const stored = store.get(server.serverId);
      if (stored === null) throw new Error(`MCP server ${server.serverId} vanished after insert`);
      return stored;
    },
    get(serverId) {
      const row = get.get(serverId);
      return row === undefined ? null : toStored(row);
    },
    byName(name) {
      const row = byName.get(name);
      return row === undefined ? null : toStored(row);
    },
    list: () => list.all().map(toStored),
    update(serverId, changes, now) {
      const current = store.get(serverId);
      if (current === null) throw new Error(`MCP server ${serverId} does not exist`);
      const next = { ...current, ...changes };
      update.run({
        serverId,
        name: next.name,
        command: next.command,
        args: JSON.stringify(next.args),
        cwd: next.cwd,
        env: settingsJson(next.env),
        url: next.url,
        headers: settingsJson(next.headers),
        enabled: next.enabled ? 1 : 0,
        now,
      });
      const updated = store.get(serverId);
      if (updated === null) throw new Error(`MCP server ${serverId} vanished after update`);
      return updated;
    },
    remove: (serverId) => remove.run(serverId).changes > 0,
    sessionChoices: (sessionId) => new Map(choices.all(sessionId).map((row) => [row.server_id, row.is_on === 1])),
    setSessionChoice(sessionId, serverId, on) {
      setChoice.run(sessionId, serverId, on ? 1 : 0);
    },
  };
  return store;
}
