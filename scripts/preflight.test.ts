import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkNativeSqlite, explainSqliteFailure } from './preflight.mjs';

const ROOT = join(import.meta.dirname, '..');

let project: string;
beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), 'cairn-preflight-'));
  writeFileSync(join(project, 'package.json'), '{"name":"fixture","private":true}');
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

/** A real copy of better-sqlite3's JavaScript and its `bindings` dependency, without any native build. */
function installWithoutNativeBuild() {
  for (const name of ['better-sqlite3', 'bindings', 'file-uri-to-path']) {
    const from = join(ROOT, 'node_modules', name);
    cpSync(from, join(project, 'node_modules', name), {
      recursive: true,
      filter: (path) => !['build', 'deps', 'src'].some((skip) => path.startsWith(join(from, skip))),
    });
  }
}

describe('checkNativeSqlite', () => {
  it('passes in this project: the installed better-sqlite3 loads and answers a query', () => {
    expect(checkNativeSqlite(ROOT)).toEqual({ ok: true });
  });

  it('says to run npm install where better-sqlite3 is not installed', () => {
    const result = checkNativeSqlite(project);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toMatch(
      /^Cairn cannot start: better-sqlite3 is not installed\. Run `npm install` first\./,
    );
  });

  it('says the native module was never built, and how to build it, where only the JavaScript is there', () => {
    installWithoutNativeBuild();
    const result = checkNativeSqlite(project);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toMatch(/its native module was never built/);
    expect(!result.ok && result.message).toContain('npm rebuild better-sqlite3');
  });
});

describe('explainSqliteFailure', () => {
  it('names an ABI mismatch (a build for another Node or for Electron)', () => {
    const error = new Error(
      "The module 'better_sqlite3.node' was compiled against a different Node.js version using NODE_MODULE_VERSION 143. This version of Node.js requires NODE_MODULE_VERSION 115.",
    );
    expect(explainSqliteFailure(error, 'v20.20.2')).toMatch(
      /^Cairn cannot start: better-sqlite3's native module was built for another Node\.js \(or for Electron\), not for this Node v20\.20\.2\./,
    );
  });

  it('explains a binary that is not a native module at all, with the loader’s own words', () => {
    const bogus = join(project, 'better_sqlite3.node');
    writeFileSync(bogus, 'not a shared object');
    let thrown: unknown;
    try {
      createRequire(join(ROOT, 'package.json'))(bogus);
    } catch (error) {
      thrown = error;
    }
    const message = explainSqliteFailure(thrown, 'v20');
    expect(message).toMatch(
      /^Cairn cannot start: better-sqlite3's native module does not load in Node v20\. Rebuild it/,
    );
    expect(message).toContain('(');
  });
});

describe('node scripts/preflight.mjs', () => {
  it('exits 0 here, with one line saying so', () => {
    const run = spawnSync(process.execPath, [join(ROOT, 'scripts', 'preflight.mjs')], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe('Preflight: better-sqlite3 loads in this Node.');
  });

  it('exits 1 with the message, and no stack trace, where the native module is missing', () => {
    installWithoutNativeBuild();
    mkdirSync(join(project, 'scripts'));
    cpSync(join(ROOT, 'scripts', 'preflight.mjs'), join(project, 'scripts', 'preflight.mjs'));
    const run = spawnSync(process.execPath, [join(project, 'scripts', 'preflight.mjs')], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /^Cairn cannot start: better-sqlite3 is installed but its native module was never built/,
    );
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
