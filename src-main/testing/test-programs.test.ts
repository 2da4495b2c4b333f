import { spawn } from 'node:child_process';
import { readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  bundleName,
  freshBundle,
  inputsName,
  TEST_PROGRAMS,
  TEST_PROGRAMS_DIR_VARIABLE,
  testProgramArgs,
} from './test-programs';
import { bundleTestPrograms, newBundleDir } from './test-programs-setup';
import { waitFor } from './wait-for';

describe('the programs tests start as processes', () => {
  const made: string[] = [];
  afterEach(() => made.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  const dirs = () => {
    const dir = newBundleDir();
    made.push(dir);
    return dir;
  };

  it('are bundled by the run’s global setup, and the workers start the bundles, not tsx', () => {
    expect(process.env[TEST_PROGRAMS_DIR_VARIABLE]).toBeTruthy();
    for (const program of TEST_PROGRAMS) {
      expect(freshBundle(program)).not.toBeNull();
      expect(testProgramArgs(program).join(' ')).not.toContain('tsx');
    }
  });

  it('run from their bundle as from their source', { timeout: 60_000 }, async () => {
    const dir = dirs();
    await bundleTestPrograms(dir);
    const program = 'src-main/testing/mcp-servers/stdio-test-server.ts';
    const bundle = freshBundle(program, dir);
    expect(bundle).toBe(join(dir, bundleName(program)));
    const child = spawn(process.execPath, [bundle ?? ''], { stdio: ['pipe', 'pipe', 'pipe'] });
    let said = '';
    child.stderr.on('data', (chunk: Buffer) => (said += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => (said += chunk.toString()));
    try {
      await waitFor(() => said.includes('test server ready'), { timeoutMs: 30_000 });
    } finally {
      child.kill();
    }
  });

  it('fall back to tsx when a source changed after the bundle was made, or there is none', async () => {
    const dir = dirs();
    const program = 'src-main/storage/testing/lock-racer.ts';
    expect(freshBundle(program, dir)).toBeNull();
    expect(freshBundle(program, '')).toBeNull();
    await bundleTestPrograms(dir);
    expect(freshBundle(program, dir)).not.toBeNull();
    const sources = JSON.parse(readFileSync(join(dir, inputsName(program)), 'utf8')) as string[];
    expect(sources).toContain('src-main/storage/data-dir-lock.ts');
    // A bundle older than one of its sources is stale.
    const past = new Date('2001-01-01T00:00:00Z');
    utimesSync(join(dir, bundleName(program)), past, past);
    expect(freshBundle(program, dir)).toBeNull();
    // A damaged list of sources is not trusted either.
    writeFileSync(join(dir, bundleName(program)), '');
    writeFileSync(join(dir, inputsName(program)), '{"not":"a list"}');
    expect(freshBundle(program, dir)).toBeNull();
  });
});
