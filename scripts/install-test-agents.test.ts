import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentPrograms, checkPrograms, failureOf, INSTALL_ARGS, installAndCheck } from './install-test-agents.mjs';

describe('agentPrograms', () => {
  it('names Claude’s and Gemini CLI’s entry points and the OpenCode platform package’s binary Cairn runs, per platform', () => {
    expect(agentPrograms('/m', 'linux', 'x64')).toEqual([
      { agent: 'Claude', path: '/m/@agentclientprotocol/claude-agent-acp/dist/index.js', answers: null },
      { agent: 'OpenCode', path: '/m/opencode-linux-x64/bin/opencode', answers: ['--version'] },
      { agent: 'Gemini CLI', path: '/m/@google/gemini-cli/bundle/gemini.js', answers: null },
    ]);
    expect(agentPrograms('/m', 'win32', 'arm64')[1]?.path).toBe(
      join('/m', 'opencode-windows-arm64', 'bin', 'opencode.exe'),
    );
  });

  it('installs without running install scripts, keeping to the lock without npm ci', () => {
    expect(INSTALL_ARGS).toContain('--ignore-scripts');
    expect(INSTALL_ARGS).toContain('--no-save');
    expect(INSTALL_ARGS[0]).toBe('install');
  });
});

describe('failureOf', () => {
  it('is null for an answer, and otherwise says how the program ended and what it said', () => {
    expect(failureOf({ status: 0, signal: null, stdout: '1.0.0\n', stderr: '' })).toBeNull();
    expect(failureOf({ status: 3, signal: null, stdout: '', stderr: 'no AVX2\n' })).toBe(
      'exited with status 3, saying:\nno AVX2',
    );
    expect(failureOf({ status: null, signal: 'SIGILL', stdout: '', stderr: '' })).toBe(
      'was killed by SIGILL, saying nothing',
    );
    expect(failureOf({ status: null, signal: null, error: new Error('spawn EACCES') })).toBe(
      'could not be started: spawn EACCES',
    );
  });
});

describe('checkPrograms, on real files', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cairn-test-agents-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function program(path: string, body: string): void {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, body);
    chmodSync(path, 0o755);
  }

  it('passes when Claude’s and Gemini CLI’s entry points are there and OpenCode answers --version', () => {
    const programs = agentPrograms(dir, 'linux', 'x64');
    program(programs[0]!.path, 'export {};\n');
    program(programs[2]!.path, 'export {};\n');
    program(programs[1]!.path, '#!/bin/sh\n[ "$1" = --version ] && echo 1.18.33\n');
    expect(checkPrograms(programs)).toEqual([]);
  });

  it('names what is missing, and a binary that does not answer with its own words', () => {
    const programs = agentPrograms(dir, 'linux', 'x64');
    program(programs[1]!.path, '#!/bin/sh\necho "cannot open /root/.local/share/opencode" >&2\nexit 2\n');
    expect(checkPrograms(programs)).toEqual([
      `Claude: ${programs[0]!.path} is missing`,
      `OpenCode: ${programs[1]!.path} --version exited with status 2, saying:\ncannot open /root/.local/share/opencode`,
      `Gemini CLI: ${programs[2]!.path} is missing`,
    ]);
  });
});

describe('installAndCheck', () => {
  it('installs once when the install and the check pass', () => {
    const steps: string[] = [];
    const status = installAndCheck({
      install: () => (steps.push('install'), 0),
      check: () => (steps.push('check'), []),
      clean: () => steps.push('clean'),
      log: () => undefined,
      error: () => undefined,
    });
    expect(status).toBe(0);
    expect(steps).toEqual(['install', 'check']);
  });

  it('tries once more from an empty node_modules, and passes when the second try does', () => {
    const steps: string[] = [];
    const errors: string[] = [];
    let installs = 0;
    const status = installAndCheck({
      install: () => (steps.push('install'), ++installs === 1 ? 1 : 0),
      check: () => (steps.push('check'), []),
      clean: () => steps.push('clean'),
      log: () => undefined,
      error: (line) => errors.push(line),
    });
    expect(status).toBe(0);
    expect(steps).toEqual(['install', 'clean', 'install', 'check']);
    expect(errors).toEqual(['The real ACP agents are not ready (attempt 1 of 2):\n  npm install exited with status 1']);
  });

  it('exits 1 after the second failed check, having said both times what was wrong', () => {
    const errors: string[] = [];
    const status = installAndCheck({
      install: () => 0,
      check: () => ['OpenCode: /m/opencode-linux-x64/bin/opencode is missing'],
      clean: () => undefined,
      log: () => undefined,
      error: (line) => errors.push(line),
    });
    expect(status).toBe(1);
    expect(errors).toHaveLength(2);
    expect(errors[1]).toContain('attempt 2 of 2');
    expect(errors[1]).toContain('opencode-linux-x64/bin/opencode is missing');
  });
});
