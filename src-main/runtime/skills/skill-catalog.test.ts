import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempWorkspace } from '../../testing/workspace-fixture';
import { readSkill, readSkillCatalog, MAX_SKILL_FILE_BYTES } from './skill-catalog';

const spaces: Array<{ cleanup(): void }> = [];
afterEach(() => spaces.splice(0).forEach((space) => space.cleanup()));

function folders() {
  const space = tempWorkspace();
  spaces.push(space);
  const personalDir = path.join(space.outside, 'skills');
  const personal = (id: string, text: string) => {
    mkdirSync(path.join(personalDir, id), { recursive: true });
    writeFileSync(path.join(personalDir, id, 'SKILL.md'), text);
  };
  const workspace = (id: string, text: string) => space.write(`.agents/skills/${id}/SKILL.md`, text);
  return { space, folders: { workspacePath: space.root, personalDir }, personal, workspace };
}

const skill = (name: string, description: string, extra = '') =>
  `---\nname: ${name}\ndescription: ${description}\n${extra}---\nDo the ${name} steps.\n`;

describe('the skill catalog', () => {
  it('reads workspace and personal skills; the workspace wins on the same id', async () => {
    const f = folders();
    f.workspace(
      'release-notes',
      skill('Release notes', 'Writes the release notes', 'required-tools: [read_file, grep]\nlicense: MIT\n'),
    );
    f.personal('release-notes', skill('Personal release notes', 'Mine'));
    f.personal('tidy', skill('Tidy', 'Tidies the desk'));
    mkdirSync(path.join(f.space.root, '.agents/skills/empty-folder'), { recursive: true });
    const catalog = await readSkillCatalog(f.folders);
    expect(catalog.map((entry) => [entry.id, entry.source, entry.kind])).toEqual([
      ['release-notes', 'workspace', 'skill'],
      ['tidy', 'personal', 'skill'],
    ]);
    expect(catalog[0]).toMatchObject({
      name: 'Release notes',
      description: 'Writes the release notes',
      requiredTools: ['read_file', 'grep'],
      instructions: 'Do the Release notes steps.\n',
    });
  });

  it('works without a workspace and without a personal folder', async () => {
    const f = folders();
    f.personal('tidy', skill('Tidy', 'Tidies'));
    expect((await readSkillCatalog({ ...f.folders, workspacePath: null })).map((entry) => entry.id)).toEqual(['tidy']);
    expect(
      await readSkillCatalog({ workspacePath: f.space.root, personalDir: path.join(f.space.base, 'nowhere') }),
    ).toEqual([]);
  });

  it('lists a skill with bad front matter as broken, with the reason', async () => {
    const f = folders();
    f.workspace('no-front', '# Just text\n');
    f.workspace('bad-yaml', '---\nname: [oops\n---\n');
    f.workspace('no-name', '---\ndescription: Something\n---\n');
    f.workspace('tools-not-list', '---\nname: X\ndescription: Y\nrequired-tools: 7\n---\n');
    f.workspace('bad id!', skill('Bad id', 'Folder name has a space'));
    const byId = Object.fromEntries((await readSkillCatalog(f.folders)).map((entry) => [entry.id, entry]));
    expect(byId['no-front']).toMatchObject({ kind: 'broken', reason: expect.stringContaining('no front matter') });
    expect(byId['bad-yaml']).toMatchObject({ kind: 'broken', reason: expect.stringContaining('not valid YAML') });
    expect(byId['no-name']).toMatchObject({ kind: 'broken', reason: 'The front matter needs a "name" (text).' });
    expect(byId['tools-not-list']).toMatchObject({
      kind: 'broken',
      reason: expect.stringContaining('"required-tools" must be a list'),
    });
    expect(byId['bad id!']).toMatchObject({ kind: 'broken', reason: expect.stringContaining('not a usable skill id') });
  });

  it('lists an unreadable or oversized SKILL.md as broken', async () => {
    const f = folders();
    const locked = f.workspace('locked', skill('Locked', 'Cannot be read'));
    f.workspace('huge', skill('Huge', 'Too big', `padding: "${'x'.repeat(MAX_SKILL_FILE_BYTES)}"\n`));
    chmodSync(locked, 0o000);
    const byId = Object.fromEntries((await readSkillCatalog(f.folders)).map((entry) => [entry.id, entry]));
    chmodSync(locked, 0o600);
    expect(byId.huge).toMatchObject({ kind: 'broken', reason: expect.stringContaining('at most 256 KB') });
    // root reads any file, so the permission case only shows for a normal user
    if (process.getuid?.() !== 0)
      expect(byId.locked).toMatchObject({ kind: 'broken', reason: 'SKILL.md cannot be read: permission denied.' });
  });

  it('reads one skill afresh: a changed file gives the new text, a removed one gives null', async () => {
    const f = folders();
    const file = f.workspace('notes', skill('Notes', 'First'));
    expect(await readSkill(f.folders, 'notes')).toMatchObject({ description: 'First' });
    writeFileSync(file, skill('Notes', 'Second'));
    expect(await readSkill(f.folders, 'notes')).toMatchObject({ description: 'Second' });
    rmSync(path.dirname(file), { recursive: true });
    expect(await readSkill(f.folders, 'notes')).toBeNull();
    expect(await readSkill(f.folders, '../escape')).toBeNull();
  });
});
