import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  childEnv,
  electronBinary,
  isBuildStale,
  newestModification,
  NO_ELECTRON_NOTE,
  packageBin,
  planStart,
} from './start.mjs';

let project: string;
beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), 'cairn-start-'));
  writeFileSync(join(project, 'package.json'), '{"name":"fixture","type":"module"}');
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

function writeFile(path: string, text: string, mtimeSeconds?: number) {
  mkdirSync(join(project, path, '..'), { recursive: true });
  writeFileSync(join(project, path), text);
  if (mtimeSeconds !== undefined) utimesSync(join(project, path), mtimeSeconds, mtimeSeconds);
}

describe('planStart', () => {
  it('with Electron: prepares SQLite and builds only when needed, then launches Electron', () => {
    expect(
      planStart({ electronPath: '/e/electron', sqliteReady: false, desktopStale: true, headlessStale: true }),
    ).toEqual([
      { kind: 'prepare-sqlite' },
      { kind: 'build' },
      { kind: 'launch-electron', electronPath: '/e/electron' },
    ]);
    expect(
      planStart({ electronPath: '/e/electron', sqliteReady: true, desktopStale: false, headlessStale: false }),
    ).toEqual([{ kind: 'launch-electron', electronPath: '/e/electron' }]);
  });

  it('without Electron: says so in one line, checks better-sqlite3 loads, builds the host and renderer when stale, and serves', () => {
    expect(planStart({ electronPath: null, sqliteReady: false, desktopStale: true, headlessStale: true })).toEqual([
      { kind: 'note', text: NO_ELECTRON_NOTE },
      { kind: 'check-sqlite' },
      { kind: 'build' },
      { kind: 'serve' },
    ]);
    expect(planStart({ electronPath: null, sqliteReady: false, desktopStale: true, headlessStale: false })).toEqual([
      { kind: 'note', text: NO_ELECTRON_NOTE },
      { kind: 'check-sqlite' },
      { kind: 'serve' },
    ]);
    expect(NO_ELECTRON_NOTE).not.toContain('\n');
  });
});

describe('isBuildStale', () => {
  it('is stale when an output is missing or older than the newest source', () => {
    expect(isBuildStale([null, 200], 100)).toBe(true);
    expect(isBuildStale([], 100)).toBe(true);
    expect(isBuildStale([150, 300], 200)).toBe(true);
    expect(isBuildStale([250, 300], 200)).toBe(false);
  });
});

describe('newestModification', () => {
  it('walks folders, ignores tests and node_modules, and tolerates missing paths', () => {
    writeFile('src/a.ts', 'a', 1000);
    writeFile('src/deep/b.ts', 'b', 2000);
    writeFile('src/deep/b.test.ts', 'test', 9000);
    writeFile('src/node_modules/x/index.js', 'x', 9000);
    writeFile('config.ts', 'c', 1500);
    expect(newestModification(project, ['src', 'config.ts', 'missing'])).toBe(2000 * 1000);
    expect(newestModification(project, ['missing'])).toBe(0);
  });
});

describe('electronBinary', () => {
  it('is null without the electron package', () => {
    expect(electronBinary(project)).toBeNull();
  });

  it('is null when the package is there but its binary was never downloaded', () => {
    writeFile('node_modules/electron/package.json', '{"name":"electron","main":"index.js"}');
    writeFile(
      'node_modules/electron/index.js',
      `module.exports = ${JSON.stringify(join(project, 'node_modules/electron/dist/electron'))};`,
    );
    expect(electronBinary(project)).toBeNull();
  });

  it('is null when the package throws, as electron does when its download failed', () => {
    writeFile('node_modules/electron/package.json', '{"name":"electron","main":"index.js"}');
    writeFile('node_modules/electron/index.js', "throw new Error('Electron failed to install correctly');");
    expect(electronBinary(project)).toBeNull();
  });

  it('is the executable path when the binary exists', () => {
    const binary = join(project, 'node_modules/electron/dist/electron');
    writeFile('node_modules/electron/package.json', '{"name":"electron","main":"index.js"}');
    writeFile('node_modules/electron/index.js', `module.exports = ${JSON.stringify(binary)};`);
    writeFile('node_modules/electron/dist/electron', '#!/bin/sh\n');
    expect(electronBinary(project)).toBe(binary);
  });
});

describe('helpers', () => {
  it('finds a package command file', () => {
    writeFile('node_modules/tool/package.json', '{"name":"tool","bin":{"tool":"bin/tool.js"}}');
    expect(packageBin(project, 'tool')).toBe(join(project, 'node_modules/tool/bin/tool.js'));
    writeFile('node_modules/single/package.json', '{"name":"single","bin":"cli.mjs"}');
    expect(packageBin(project, 'single')).toBe(join(project, 'node_modules/single/cli.mjs'));
  });

  it('never passes ELECTRON_RUN_AS_NODE to the app', () => {
    expect(childEnv({ PATH: '/bin', ELECTRON_RUN_AS_NODE: '1' })).toEqual({ PATH: '/bin' });
  });
});

describe('node scripts/start.mjs without Electron', () => {
  it('stops before building or serving, with a message, when better-sqlite3 has no native build', () => {
    const root = join(import.meta.dirname, '..');
    // The project's scripts, and better-sqlite3's real JavaScript without its native build; no electron.
    cpSync(join(root, 'scripts'), join(project, 'scripts'), {
      recursive: true,
      filter: (path) => !path.endsWith('.test.ts'),
    });
    for (const name of ['better-sqlite3', 'bindings', 'file-uri-to-path']) {
      const from = join(root, 'node_modules', name);
      cpSync(from, join(project, 'node_modules', name), {
        recursive: true,
        filter: (path) => !['build', 'deps', 'src'].some((skip) => path.startsWith(join(from, skip))),
      });
    }
    const run = spawnSync(process.execPath, [join(project, 'scripts', 'start.mjs')], {
      cwd: project,
      encoding: 'utf8',
      timeout: 15_000,
    });
    expect(run.stdout).toContain(NO_ELECTRON_NOTE);
    expect(run.stderr).toMatch(
      /^Cairn cannot start: better-sqlite3 is installed but its native module was never built/,
    );
    expect(run.status).toBe(1);
    expect(existsSync(join(project, 'out'))).toBe(false);
  });
});
