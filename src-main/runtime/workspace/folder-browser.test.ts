import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listFolders } from './folder-browser';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'cairn-folders-'));
});
afterEach(() => {
  chmodSync(root, 0o755);
  rmSync(root, { recursive: true, force: true });
});

describe('listing folders on the host to choose a workspace', () => {
  it('lists sub-folders by name (links to folders too), not files; hidden ones only when asked', () => {
    for (const name of ['src', 'Docs', 'item10', 'item9', '.git']) mkdirSync(join(root, name));
    writeFileSync(join(root, 'notes.txt'), '');
    symlinkSync(join(root, 'src'), join(root, 'linked'));
    symlinkSync(join(root, 'gone'), join(root, 'dangling'));
    const listed = listFolders({ path: root }, '/home/someone');
    expect(listed).toEqual({
      ok: true,
      result: {
        path: root,
        parent: dirname(root),
        home: '/home/someone',
        folders: ['Docs', 'item9', 'item10', 'linked', 'src'].map((name) => ({ name, path: join(root, name) })),
        hiddenCount: 1,
        truncated: false,
      },
    });
    const hidden = listFolders({ path: root, showHidden: true }, '/home/someone');
    expect(hidden.ok ? hidden.result.folders.map((folder) => folder.name) : null).toEqual([
      '.git',
      'Docs',
      'item9',
      'item10',
      'linked',
      'src',
    ]);
  });

  it('starts at home, normalises the path, and has no parent at the root', () => {
    mkdirSync(join(root, 'a'));
    const home = listFolders({}, root);
    expect(home.ok ? home.result.path : null).toBe(root);
    const dotted = listFolders({ path: `${root}/a/..` }, root);
    expect(dotted.ok ? dotted.result.path : null).toBe(root);
    const top = listFolders({ path: '/' }, root);
    expect(top.ok ? top.result.parent : 'failed').toBeNull();
  });

  it('refuses a relative path, a missing folder, a file, and a folder it may not read, saying which', () => {
    writeFileSync(join(root, 'file.txt'), '');
    const refusal = (path: string) => {
      const outcome = listFolders({ path }, root);
      return outcome.ok ? null : outcome.error;
    };
    expect(refusal('projects/app')).toEqual({
      code: 'invalid_input',
      message: '"projects/app" is not an absolute path: start it with / (or a drive letter on Windows).',
    });
    expect(refusal(join(root, 'nope'))).toEqual({
      code: 'not_found',
      message: `There is no folder ${join(root, 'nope')} on the host.`,
    });
    expect(refusal(join(root, 'file.txt'))).toEqual({
      code: 'invalid_input',
      message: `${join(root, 'file.txt')} is a file, not a folder.`,
    });
    if (process.getuid?.() === 0) return; // root reads every folder
    mkdirSync(join(root, 'locked'));
    chmodSync(join(root, 'locked'), 0o000);
    expect(refusal(join(root, 'locked'))).toEqual({
      code: 'invalid_input',
      message: `Cairn may not open ${join(root, 'locked')}: permission denied.`,
    });
    chmodSync(join(root, 'locked'), 0o755);
  });
});
