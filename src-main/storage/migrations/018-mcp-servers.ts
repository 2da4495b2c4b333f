import type { Migration } from './migration';

/**
 * MCP servers: how to start or reach each one (stdio command, args, cwd and environment, or a
 * Streamable HTTP URL and headers), revisioned like connections. A secret environment variable or
 * header is stored here by name only; its value lives in the secret vault. Per session, the servers
 * turned off there (every enabled server is on in a session until turned off).
 */
export const migration018McpServers: Migration = {
  version: 18,
  name: 'mcp-servers',
  up: `
    CREATE TABLE mcp_servers (
      server_id TEXT PRIMARY KEY,
      name TEXT NOT NULL UNIQUE,
      transport TEXT NOT NULL CHECK (transport IN ('stdio', 'http')),
      command TEXT,
      args TEXT NOT NULL DEFAULT '[]',
      cwd TEXT,
      env TEXT NOT NULL DEFAULT '[]',
      url TEXT,
      headers TEXT NOT NULL DEFAULT '[]',
      enabled INTEGER NOT NULL DEFAULT 1,
      revision INTEGER NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    ) STRICT;

    CREATE TABLE mcp_session_servers (
      session_id TEXT NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
      server_id TEXT NOT NULL REFERENCES mcp_servers(server_id) ON DELETE CASCADE,
      is_on INTEGER NOT NULL,
      PRIMARY KEY (session_id, server_id)
    ) STRICT, WITHOUT ROWID;
  `,
};
