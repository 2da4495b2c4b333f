import { describe, expect, it } from 'vitest';
import { freshEnv, judgeInstall } from './check-fresh-install.mjs';

describe('freshEnv', () => {
  it('drops what a fresh machine would not have set, and keeps the rest', () => {
    const env = freshEnv({
      PATH: '/usr/bin',
      HOME: '/root',
      ELECTRON_SKIP_BINARY_DOWNLOAD: '1',
      ELECTRON_MAJOR_VER: '40',
      PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
      CAIRN_CHROMIUM: '/usr/bin/chromium',
      npm_config_ignore_scripts: 'true',
      NPM_CONFIG_OMIT: 'optional',
      npm_lifecycle_event: 'test',
      NODE_OPTIONS: '--require x',
    });
    expect(env).toEqual({ PATH: '/usr/bin', HOME: '/root' });
  });
});

describe('judgeInstall', () => {
  it('passes an install that exited 0, without the allowScripts warning, with a better-sqlite3 that loads', () => {
    expect(judgeInstall({ status: 0, output: 'added 500 packages in 2m', sqliteLoads: true })).toEqual({
      ok: true,
      problems: [],
    });
  });

  it('fails on a non-zero exit, on the install-scripts warning, and on a better-sqlite3 that does not load', () => {
    expect(judgeInstall({ status: 1, output: 'npm error code 1', sqliteLoads: false }).problems).toEqual([
      'npm install exited 1',
    ]);
    const warned = judgeInstall({
      status: 0,
      output: 'npm warn install-scripts 3 packages have install scripts not yet covered by allowScripts:',
      sqliteLoads: true,
    });
    expect(warned.ok).toBe(false);
    expect(warned.problems[0]).toMatch(/allowScripts/);
    expect(judgeInstall({ status: 0, output: '', sqliteLoads: false }).problems).toEqual([
      'better-sqlite3 does not load after the install',
    ]);
  });
});
