import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStores } from '../../storage/stores';
import { tempDataDir } from '../../testing/host-fixture';
import { tempWorkspace } from '../../testing/workspace-fixture';
import { SkillService } from './skill-service';

let space: ReturnType<typeof tempWorkspace>;
beforeEach(() => {
  space = tempWorkspace();
  space.write('.agents/skills/notes/SKILL.md', '---\nname: Notes\ndescription: Takes notes\n---\nSteps.\n');
});
afterEach(() => space.cleanup());

describe('archive and removal racing a listing', () => {
  it.each([
    ['archived', 'session_archived'],
    ['removed', 'not_found'],
  ] as const)('a session %s while its tool surface resolves answers %s', async (change, code) => {
    const dataDir = tempDataDir();
    const stores = openStores(dataDir.dir);
    try {
      const now = 1_000;
      stores.sessions.insert({
        sessionId: 's1',
        title: 'S',
        titleSource: 'default',
        workspacePath: space.root,
        connectionId: 'offline-demo',
        model: null,
        permissionMode: 'ask',
        now,
      });
      const skills = new SkillService({
        session: (sessionId) => stores.sessions.get(sessionId),
        connectionExists: () => true,
        defaultConnectionId: () => 'offline-demo',
        personalDir: path.join(dataDir.dir, 'skills'),
        toolSurface: async () => {
          if (change === 'archived') stores.sessions.setArchived('s1', true, now);
          else stores.sessions.remove('s1');
          return { kind: 'tools', names: ['read_file', 'write_file'] };
        },
      });
      expect(await skills.list({ kind: 'session', sessionId: 's1' })).toMatchObject({ ok: false, error: { code } });
    } finally {
      stores.close();
      dataDir.cleanup();
    }
  });
});
