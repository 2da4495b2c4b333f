import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summaryLine } from './run-parallel.mjs';

const SCRIPT = join(import.meta.dirname, 'run-parallel.mjs');

describe('run-parallel', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cairn-run-parallel-'));
    // Each script waits for the other's file, so they pass only when they run side by side.
    const waitFor = (file: string) =>
      `node -e "const f=require('fs'),t=Date.now();(function w(){if(f.existsSync('${file}'))return;if(Date.now()-t>60000)process.exit(3);setTimeout(w,50)})()"`;
    const scripts = {
      first: `node -e "require('fs').writeFileSync('first.done','')" && ${waitFor('second.done')} && echo first said this`,
      second: `node -e "require('fs').writeFileSync('second.done','')" && ${waitFor('first.done')} && echo second said this`,
      broken: 'echo broken said this && exit 4',
    };
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'run-parallel-check', private: true, scripts }));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const run = (...names: string[]) =>
    spawnSync(process.execPath, [SCRIPT, ...names], { cwd: dir, encoding: 'utf8', timeout: 90_000 });

  it('runs the scripts side by side and prints each one whole, in the order given', { timeout: 90_000 }, () => {
    const result = run('second', 'first');
    expect(result.status).toBe(0);
    const second = result.stdout.indexOf('second said this');
    const first = result.stdout.indexOf('first said this');
    expect(second).toBeGreaterThan(-1);
    expect(first).toBeGreaterThan(second);
    expect(result.stdout).toMatch(/✓ npm run first \(\d+ s\)/);
  });

  it('waits for every script and exits 1 when any failed, saying which', { timeout: 90_000 }, () => {
    const result = run('broken', 'first', 'second');
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('broken said this');
    expect(result.stdout).toContain('✗ npm run broken failed with exit status 4');
    expect(result.stdout).toContain('second said this');
  });

  it('summarises a script in one line', () => {
    expect(summaryLine({ name: 'lint', status: 0, seconds: 61.4 })).toBe('✓ npm run lint (61 s)');
    expect(summaryLine({ name: 'build', status: 2, seconds: 9.6 })).toBe(
      '✗ npm run build failed with exit status 2 (10 s)',
    );
  });
});
