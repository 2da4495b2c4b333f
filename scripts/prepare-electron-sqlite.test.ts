import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  electronSqlitePaths,
  electronSqliteStatus,
  ELECTRON_HEADERS_URL,
  expectedBuildInfo,
  installedVersions,
  isBuildCurrent,
  nodeGypArgs,
  nodeGypCandidates,
  prebuildInstallArgs,
  prepareElectronSqlite,
  PrepareError,
  validVersion,
} from './prepare-electron-sqlite.mjs';

let project: string;

function install(name: string, version: string) {
  mkdirSync(join(project, 'node_modules', name), { recursive: true });
  writeFileSync(join(project, 'node_modules', name, 'package.json'), JSON.stringify({ name, version }));
}

function writeBuild(info: unknown) {
  const paths = electronSqlitePaths(project);
  mkdirSync(paths.dir, { recursive: true });
  writeFileSync(paths.binary, 'not really a binary');
  writeFileSync(paths.info, JSON.stringify(info));
}

beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), 'cairn-prepare-'));
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

describe('versions and paths', () => {
  it('keeps the Electron build in native/electron, apart from node_modules', () => {
    expect(electronSqlitePaths('/p')).toEqual({
      dir: join('/p', 'native', 'electron'),
      binary: join('/p', 'native', 'electron', 'better_sqlite3.node'),
      info: join('/p', 'native', 'electron', 'build-info.json'),
    });
  });

  it('accepts only plain version strings', () => {
    expect(validVersion('40.10.2')).toBe('40.10.2');
    expect(validVersion('41.0.0-beta.3')).toBe('41.0.0-beta.3');
    for (const bad of ['40', 'v40.1.0', '40.1.0 --evil', '', null, 40]) expect(validVersion(bad)).toBeNull();
  });

  it('reads the installed versions and Electron ABI, null when absent', () => {
    expect(installedVersions(project)).toEqual({ electron: null, betterSqlite3: null, electronAbi: null });
    install('electron', '40.10.2');
    install('better-sqlite3', '12.11.1');
    writeFileSync(join(project, 'node_modules', 'electron', 'abi_version'), '143\n');
    expect(installedVersions(project)).toEqual({ electron: '40.10.2', betterSqlite3: '12.11.1', electronAbi: '143' });
  });
});

describe('whether the Electron build is current', () => {
  const expected = expectedBuildInfo({
    electronVersion: '40.10.2',
    betterSqlite3Version: '12.11.1',
    platform: 'linux',
    arch: 'x64',
  });

  it('matches a build note for the same electron, better-sqlite3, platform and arch', () => {
    expect(isBuildCurrent({ ...expected, builtAt: 'whenever' }, expected)).toBe(true);
  });

  it('asks for a rebuild after any of them changes, or without a note', () => {
    expect(isBuildCurrent({ ...expected, electron: '40.9.0' }, expected)).toBe(false);
    expect(isBuildCurrent({ ...expected, betterSqlite3: '12.10.0' }, expected)).toBe(false);
    expect(isBuildCurrent({ ...expected, arch: 'arm64' }, expected)).toBe(false);
    expect(isBuildCurrent(null, expected)).toBe(false);
    expect(isBuildCurrent('yes', expected)).toBe(false);
  });

  it('reports current only when the binary and a matching note are both there', () => {
    install('electron', '40.10.2');
    install('better-sqlite3', '12.11.1');
    expect(electronSqliteStatus(project, 'linux', 'x64').current).toBe(false);
    writeBuild({ ...expected, electron: '39.0.0' });
    expect(electronSqliteStatus(project, 'linux', 'x64').current).toBe(false);
    writeBuild(expected);
    expect(electronSqliteStatus(project, 'linux', 'x64').current).toBe(true);
    rmSync(electronSqlitePaths(project).binary);
    expect(electronSqliteStatus(project, 'linux', 'x64').current).toBe(false);
  });
});

describe('the build commands', () => {
  it('asks prebuild-install for the Electron runtime at the installed version', () => {
    expect(prebuildInstallArgs({ electronVersion: '40.10.2', platform: 'linux', arch: 'x64' })).toEqual([
      '--runtime=electron',
      '--target=40.10.2',
      '--platform=linux',
      '--arch=x64',
      '--verbose',
    ]);
  });

  it('builds from source against Electron headers, cached apart from Node headers', () => {
    const args = nodeGypArgs({ electronVersion: '40.10.2', arch: 'arm64', home: '/home/ada' });
    expect(args).toContain('rebuild');
    expect(args).toContain('--target=40.10.2');
    expect(args).toContain('--arch=arm64');
    expect(args).toContain(`--dist-url=${ELECTRON_HEADERS_URL}`);
    expect(args).toContain(`--devdir=${join('/home/ada', '.electron-gyp')}`);
  });

  it('looks for node-gyp in the project, then beside npm', () => {
    expect(
      nodeGypCandidates({
        projectDir: '/p',
        npmExecPath: '/usr/lib/node_modules/npm/bin/npm-cli.js',
        execPath: '/usr/bin/node',
        platform: 'linux',
      }),
    ).toEqual([
      join('/p', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
      join('/usr/lib/node_modules/npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
      join('/usr/lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
    ]);
    expect(
      nodeGypCandidates({
        projectDir: 'C:\\p',
        npmExecPath: undefined,
        execPath: 'C:\\node\\node.exe',
        platform: 'win32',
      }),
    ).toHaveLength(2);
  });
});

describe('prepareElectronSqlite', () => {
  it('fails with a clear message when electron is not installed', () => {
    install('better-sqlite3', '12.11.1');
    expect(() => prepareElectronSqlite({ projectDir: project, log: () => {} })).toThrow(PrepareError);
    expect(() => prepareElectronSqlite({ projectDir: project, log: () => {} })).toThrow(
      /electron package is not installed.*npm install/,
    );
  });

  it('does nothing when the build is already current', () => {
    install('electron', '40.10.2');
    install('better-sqlite3', '12.11.1');
    writeBuild(
      expectedBuildInfo({
        electronVersion: '40.10.2',
        betterSqlite3Version: '12.11.1',
        platform: process.platform,
        arch: process.arch,
      }),
    );
    const lines: string[] = [];
    expect(prepareElectronSqlite({ projectDir: project, log: (line) => lines.push(line) })).toBe(
      electronSqlitePaths(project).binary,
    );
    expect(lines).toEqual([expect.stringMatching(/for Electron 40\.10\.2 is ready/)]);
  });
});
