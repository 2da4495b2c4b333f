import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hookSourceFiles, readSessionHooks, type HookSourceOptions } from './hook-sources';

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});
const temp = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cairn-hook-sources-'));
  dirs.push(dir);
  return dir;
};

const options = (overrides: Partial<HookSourceOptions>): HookSourceOptions => ({
  dataDir: '/data',
  homeDir: '/home/me',
  workspace: '/ws',
  useClaudeUserSettings: false,
  agentRunsClaudeProjectHooks: false,
  trustedHashOf: () => null,
  isDisabled: () => false,
  ...overrides,
});

describe('where hooks come from', () => {
  it("reads Cairn's file, ~/.claude/settings.json only when opted in, and the workspace's two files", () => {
    expect(hookSourceFiles(options({})).map((file) => file.path)).toEqual([
      '/data/hooks.json',
      '/ws/.cairn/settings.json',
      '/ws/.claude/settings.json',
    ]);
    expect(hookSourceFiles(options({ useClaudeUserSettings: true })).map((file) => file.path)).toContain(
      '/home/me/.claude/settings.json',
    );
  });

  it('leaves out .claude/settings.json for the Claude Code agent, which runs those hooks itself', () => {
    expect(hookSourceFiles(options({ agentRunsClaudeProjectHooks: true })).map((file) => file.path)).toEqual([
      '/data/hooks.json',
      '/ws/.cairn/settings.json',
    ]);
  });

  it('trusts a workspace file by the hash of its hooks: another definition is untrusted again', () => {
    const ws = temp();
    mkdirSync(path.join(ws, '.cairn'));
    const file = path.join(ws, '.cairn', 'settings.json');
    const write = (cmd: string) =>
      writeFileSync(file, JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: cmd }] }] } }));
    write('a.sh');
    const first = readSessionHooks(options({ dataDir: temp(), workspace: ws }));
    expect(first.hooks).toMatchObject([{ command: 'a.sh', trusted: false }]);
    const hash = first.untrusted[0]?.hash;
    const trustedAs = (path_: string) => (path_ === file ? (hash ?? null) : null);
    expect(readSessionHooks(options({ dataDir: temp(), workspace: ws, trustedHashOf: trustedAs })).hooks).toMatchObject(
      [{ trusted: true }],
    );
    write('b.sh');
    expect(readSessionHooks(options({ dataDir: temp(), workspace: ws, trustedHashOf: trustedAs })).hooks).toMatchObject(
      [{ command: 'b.sh', trusted: false }],
    );
  });
});
