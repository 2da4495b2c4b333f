import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempWorkspace } from '../../testing/workspace-fixture';
import { resolveInWorkspace } from '../workspace/workspace-paths';
import { isRunLaterFile, mayWriteRunLater, runLaterRefusal } from './run-later-files';

describe('files that make code run later', () => {
  let ws: ReturnType<typeof tempWorkspace>;
  beforeEach(() => {
    ws = tempWorkspace();
  });
  afterEach(() => ws.cleanup());

  /** Resolved as the file tools resolve a path (links and `..` followed), then judged. */
  const runsLater = async (requested: string, root = ws.root) => {
    const target = await resolveInWorkspace(root, requested);
    if (!target.ok) throw new Error(target.message);
    return isRunLaterFile(target.root, target.absolute);
  };
  const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, stdio: 'ignore' });

  it('names git hooks and config, .cairn and Claude’s settings, at any depth and in any case; ordinary files are not', async () => {
    git(ws.root, 'init', '-q');
    for (const file of [
      '.git/hooks/pre-commit',
      '.git/hooks/new-folder/x',
      '.git/config',
      '.git/modules/lib/hooks/post-checkout',
      '.git/modules/lib/config',
      '.git/worktrees/w1/config.worktree',
      '.GIT/hooks/pre-commit',
      '.Git/Config',
      'vendor/other/.git/hooks/pre-push',
      '.cairn/settings.json',
      'sub/.cairn/anything',
      '.claude/settings.json',
      '.claude/settings.local.json',
      'pkg/.claude/SETTINGS.json',
      '.git',
      'sub/.git',
    ])
      expect([file, await runsLater(file)]).toEqual([file, true]);
    for (const file of [
      'src/index.ts',
      'hooks/pre-commit',
      'config',
      '.gitignore',
      '.git/HEAD',
      '.git/info/exclude',
      '.claude/agents/helper.md',
      '.claude/settings.json.bak',
      'docs/.claude.md',
    ])
      expect([file, await runsLater(file)]).toEqual([file, false]);
  });

  it('sees through `..`, absolute paths and links made inside the workspace', async () => {
    git(ws.root, 'init', '-q');
    expect(await runsLater('./.git/../.git/hooks/pre-commit')).toBe(true);
    expect(await runsLater(path.join(ws.root, 'src/../.git/config'))).toBe(true);
    symlinkSync('.git/hooks', path.join(ws.root, 'innocent'));
    expect(await runsLater('innocent/pre-commit')).toBe(true);
    writeFileSync(path.join(ws.root, '.git/hooks/pre-push'), '');
    symlinkSync('.git/hooks/pre-push', path.join(ws.root, 'notes.txt'));
    expect(await runsLater('notes.txt')).toBe(true);
    symlinkSync('.', path.join(ws.root, 'here'));
    expect(await runsLater('here/.claude/settings.json')).toBe(true);
  });

  it('finds git directories by what they hold, whatever their name: a bare repository, the one a worktree’s .git file names, and core.hooksPath', async () => {
    // A bare repository inside the workspace, and a worktree of it beside it.
    git(ws.root, 'init', '-q', '--bare', 'store.git');
    expect(await runsLater('store.git/hooks/pre-receive')).toBe(true);
    expect(await runsLater('store.git/config')).toBe(true);
    expect(await runsLater('store.git/description')).toBe(false);
    // A workspace that is a worktree whose git directory lies inside it (under another name).
    const repo = path.join(ws.root, 'project');
    mkdirSync(repo);
    git(repo, 'init', '-q');
    git(repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'one');
    git(repo, 'worktree', 'add', '-q', path.join(repo, 'tree'));
    const tree = realpathSync(path.join(repo, 'tree'));
    expect(await runsLater('.git', tree)).toBe(true);
    expect(await runsLater('project/.git/worktrees/tree/config.worktree')).toBe(true);
    // The hooks folder the repository's config names.
    git(repo, 'config', 'core.hooksPath', '.husky');
    expect(await runsLater('.husky/pre-commit', repo)).toBe(true);
    expect(await runsLater('husky/pre-commit', repo)).toBe(false);
  });

  it('lets a write through in Full, in Ask only when approved on its card, never in Auto or Explore; the refusal says why', () => {
    expect(mayWriteRunLater('full', false)).toBe(true);
    expect(mayWriteRunLater('ask', true)).toBe(true);
    expect(mayWriteRunLater('ask', false)).toBe(false);
    expect(mayWriteRunLater('auto', true)).toBe(false);
    expect(mayWriteRunLater('explore', true)).toBe(false);
    expect(runLaterRefusal('.git/hooks/pre-commit', 'auto')).toMatch(
      /^"\.git\/hooks\/pre-commit" is read-only for agents: it makes code run later, outside the sandbox/,
    );
  });
});
