import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDataDir } from '../../testing/host-fixture';
import { agentEnv } from '../agent-backends/acp/acp-agent-start';
import { appServerLaunch } from '../agent-backends/codex/codex-config';
import { systemGit } from '../worktrees/git-command';
import { childEnvironment, parsePassThrough } from './child-environment';

const HOST_ENV = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: process.env.HOME ?? '/root',
  CAIRN_TOKEN: 'host-token-value-123',
  CAIRN_DATA_DIR: '/data',
  OPENAI_API_KEY: 'sk-person',
  GITHUB_TOKEN: 'ghp-person',
  DB_PASSWORD: 'hunter2',
  AWS_SECRET_ACCESS_KEY: 'aws',
  EDITOR: 'vi',
};

describe('childEnvironment', () => {
  it("never passes Cairn's own variables, whatever the options", () => {
    const env = childEnvironment({
      base: HOST_ENV,
      scrubSecrets: false,
      passThrough: ['CAIRN_TOKEN'],
      extra: { X: '1' },
    });
    expect(Object.keys(env).filter((name) => name.startsWith('CAIRN_'))).toEqual([]);
    expect(Object.values(env)).not.toContain('host-token-value-123');
    expect(env).toMatchObject({ OPENAI_API_KEY: 'sk-person', EDITOR: 'vi', X: '1' });
  });

  it('leaves out secret-looking names for commands, except those passed through', () => {
    const env = childEnvironment({ base: HOST_ENV, scrubSecrets: true, passThrough: ['GITHUB_TOKEN'] });
    expect(env).toEqual({ PATH: HOST_ENV.PATH, HOME: HOST_ENV.HOME, EDITOR: 'vi', GITHUB_TOKEN: 'ghp-person' });
  });

  it('inherits only the named variables when asked, and adds extras last', () => {
    expect(
      childEnvironment({ base: HOST_ENV, scrubSecrets: false, only: ['PATH', 'CAIRN_TOKEN'], extra: { PATH: '/x' } }),
    ).toEqual({ PATH: '/x' });
  });

  it('reads the pass-through setting, refusing bad names and Cairn’s own', () => {
    expect(parsePassThrough(' GITHUB_TOKEN, NPM_TOKEN ')).toEqual(['GITHUB_TOKEN', 'NPM_TOKEN']);
    expect(parsePassThrough(undefined)).toEqual([]);
    expect(() => parsePassThrough('A-B')).toThrow(/not an environment variable name/);
    expect(() => parsePassThrough('CAIRN_TOKEN')).toThrow(/Cairn's own/);
  });
});

describe('the environment of each kind of child', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
  });

  it('an ACP agent gets its connection’s key, none of Cairn’s variables', () => {
    process.env.CAIRN_TOKEN = 'host-token-value-123';
    const env = agentEnv({ env: { ANTHROPIC_API_KEY: 'sk-ant' } });
    expect(env.ANTHROPIC_API_KEY).toBe('sk-ant');
    expect(Object.keys(env).filter((name) => name.startsWith('CAIRN_'))).toEqual([]);
  });

  it('the Codex app-server gets its connection’s key under a name of its own, none of Cairn’s variables', () => {
    const launch = appServerLaunch(
      { binary: 'codex', model: 'm', baseUrl: null, apiKey: 'sk-vault', codexHome: '/h', tmpDir: '/t' },
      '/w',
      HOST_ENV,
    );
    expect(Object.keys(launch.env).filter((name) => name.startsWith('CAIRN_'))).toEqual([]);
    expect(Object.values(launch.env)).toContain('sk-vault');
    expect(Object.values(launch.env)).not.toContain('host-token-value-123');
  });

  it('git run for worktrees gets none of Cairn’s variables (a real git prints its environment)', async () => {
    const temp = tempDataDir();
    try {
      const git = systemGit(HOST_ENV);
      const { stdout } = await git(temp.dir, ['-c', 'alias.printenv=!env', 'printenv']);
      expect(stdout).toContain('EDITOR=vi');
      expect(stdout).not.toMatch(/^CAIRN_/m);
      expect(stdout).not.toContain('host-token-value-123');
    } finally {
      temp.cleanup();
    }
  });
});

/**
 * Every place that starts a process gives it an environment made by child-environment.ts: a spawn
 * without `env:` inherits Cairn's whole environment, and `process.env` passed directly does too.
 */
describe('spawn points', () => {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
  const sources = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return name === 'testing' ? [] : sources(path);
      return /\.ts$/.test(name) && !/\.test\.ts$/.test(name) ? [path] : [];
    });
  /** The text of each call `name(…)`, parentheses balanced. */
  const calls = (text: string, pattern: RegExp): string[] => {
    const found: string[] = [];
    for (const match of text.matchAll(pattern)) {
      let depth = 0;
      let end = match.index + match[0].length - 1;
      for (; end < text.length; end += 1) {
        if (text[end] === '(') depth += 1;
        else if (text[end] === ')' && --depth === 0) break;
      }
      found.push(text.slice(match.index, end + 1));
    }
    return found;
  };

  it('give each child an environment from child-environment.ts, never process.env', () => {
    const problems: string[] = [];
    let spawnCalls = 0;
    for (const file of sources(root)) {
      const text = readFileSync(file, 'utf8');
      const name = relative(root, file);
      // host-client/ runs in `cairn acp`, outside the host, and starts the host itself: Cairn, not a
      // child of Cairn, given the environment `cairn acp` got as `npm start` would be.
      if (name.startsWith(`host-client${sep}`)) continue;
      if (/from 'node:child_process'/.test(text)) {
        for (const call of calls(
          text,
          /(?<![.\w])(?:spawn|spawnSync|execFile|execFileSync|exec|execSync|fork)\((?!\))/g,
        )) {
          spawnCalls += 1;
          if (!/\benv\b/.test(call)) problems.push(`${name}: ${call.slice(0, 60)}… passes no env (inherits Cairn's)`);
          if (/process\.env/.test(call)) problems.push(`${name}: ${call.slice(0, 60)}… passes process.env`);
        }
      }
      for (const call of calls(text, /new StdioClientTransport\(/g))
        if (!/childEnvironment\(/.test(call))
          problems.push(`${name}: an MCP stdio server's env is not made by childEnvironment`);
      if (/\.\.\.process\.env\b/.test(text) && !name.endsWith('child-environment.ts'))
        problems.push(`${name}: spreads process.env`);
    }
    expect(problems).toEqual([]);
    expect(spawnCalls).toBeGreaterThan(5);
  });
});
