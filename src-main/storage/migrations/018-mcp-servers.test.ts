import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database';
import { createMcpServerStore } from '../mcp-server-store';
import { MIGRATIONS } from './index';
import { migration018McpServers } from './018-mcp-servers';

describe('migration 18: MCP servers', () => {
  it('adds the server catalog to a version-14 database; a secret value never reaches it', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    const before = MIGRATIONS.filter((migration) => migration.version < 18);
    migrate(db, before);
    migrate(db, [...before, migration018McpServers]);
    expect(schemaVersion(db)).toBe(18);
    const store = createMcpServerStore(db);
    store.insert(
      {
        serverId: 's1',
        name: 'Docs',
        transport: 'http',
        command: null,
        args: [],
        cwd: null,
        env: [],
        url: 'http://127.0.0.1:1/mcp',
        headers: [
          { name: 'Authorization', secret: true, value: 'must-not-be-stored' },
          { name: 'X-Team', secret: false, value: 'blue' },
        ],
        enabled: true,
      },
      5,
    );
    expect(store.get('s1')).toMatchObject({
      revision: 1,
      headers: [
        { name: 'Authorization', secret: true, value: null },
        { name: 'X-Team', value: 'blue' },
      ],
    });
    expect(JSON.stringify(db.prepare('SELECT * FROM mcp_servers').all())).not.toContain('must-not-be-stored');
    expect(store.update('s1', { enabled: false }, 6)).toMatchObject({ enabled: false, revision: 2, updatedAt: 6 });
    expect(store.byName('docs')?.serverId).toBe('s1');
  });
});
