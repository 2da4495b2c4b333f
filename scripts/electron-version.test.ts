import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { electronVersion, ensureElectronMajorVersion, majorOf, pickElectronVersion } from './electron-version.mjs';

let project: string;
beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), 'cairn-electron-version-'));
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

function write(path: string, value: unknown) {
  mkdirSync(join(project, path, '..'), { recursive: true });
  writeFileSync(join(project, path), JSON.stringify(value));
}

describe('pickElectronVersion', () => {
  it('prefers the installed package, then the locked version, then the lowest version the declared range allows', () => {
    expect(pickElectronVersion({ installed: '40.10.2', locked: '40.9.0', declared: '^40.8.5' })).toBe('40.10.2');
    expect(pickElectronVersion({ installed: null, locked: '40.9.0', declared: '^40.8.5' })).toBe('40.9.0');
    expect(pickElectronVersion({ installed: null, locked: null, declared: '^40.8.5' })).toBe('40.8.5');
    expect(pickElectronVersion({ installed: null, locked: null, declared: '41.0.0-beta.3' })).toBeNull();
    expect(pickElectronVersion({ installed: 'garbage', locked: null, declared: 'latest' })).toBeNull();
  });

  it('takes the major version of a full version', () => {
    expect(majorOf('40.10.2')).toBe('40');
    expect(majorOf('41.0.0-beta.3')).toBe('41');
    expect(majorOf('forty')).toBeNull();
    expect(majorOf(null)).toBeNull();
  });
});

describe('reading the project', () => {
  it('where npm dropped the electron package, finds the version it locked', () => {
    write('package.json', { optionalDependencies: { electron: '^40.8.5' } });
    write('package-lock.json', { packages: { 'node_modules/electron': { version: '40.10.2', optional: true } } });
    expect(electronVersion(project)).toBe('40.10.2');
  });

  it('where the package is installed, its own version wins', () => {
    write('package.json', { optionalDependencies: { electron: '^40.8.5' } });
    write('package-lock.json', { packages: { 'node_modules/electron': { version: '40.10.2' } } });
    write('node_modules/electron/package.json', { name: 'electron', version: '40.11.0' });
    expect(electronVersion(project)).toBe('40.11.0');
  });

  it('sets ELECTRON_MAJOR_VER for electron-vite unless it is set, and says so when nothing names a version', () => {
    write('package.json', { optionalDependencies: { electron: '^40.8.5' } });
    const env: NodeJS.ProcessEnv = {};
    expect(ensureElectronMajorVersion(env, project)).toBe('40');
    expect(env.ELECTRON_MAJOR_VER).toBe('40');
    expect(ensureElectronMajorVersion({ ELECTRON_MAJOR_VER: '39' }, project)).toBe('39');

    write('package.json', { name: 'no-electron' });
    expect(() => ensureElectronMajorVersion({}, project)).toThrow(/Electron version is unknown/);
  });
});

describe('this project', () => {
  it('names an Electron version, so the build works with or without the electron package', () => {
    expect(majorOf(electronVersion(join(import.meta.dirname, '..')))).toMatch(/^\d+$/);
  });
});
