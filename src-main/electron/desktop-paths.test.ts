import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DataDirError, DataDirLockedError } from '../storage/data-dir-errors';
import {
  describeStartupError,
  electronSqliteBindingPath,
  OVERRIDE_PROFILE_FOLDER,
  resolveDesktopDirs,
  resolveRendererUrl,
} from './desktop-paths';

const USER_DATA = join('/home/ada/.config', 'cairn');
const INDEX = join('/opt/cairn', 'out', 'renderer', 'index.html');

describe('resolveDesktopDirs', () => {
  it('keeps the data in userData/data and leaves userData alone by default', () => {
    expect(resolveDesktopDirs(USER_DATA, undefined)).toEqual({ dataDir: join(USER_DATA, 'data'), userDataDir: null });
    expect(resolveDesktopDirs(USER_DATA, '  ')).toEqual({ dataDir: join(USER_DATA, 'data'), userDataDir: null });
  });

  it('moves the data and the Electron profile under CAIRN_DATA_DIR, resolved to an absolute path', () => {
    const dirs = resolveDesktopDirs(USER_DATA, 'tmp/e2e-1');
    expect(dirs.dataDir).toBe(resolve('tmp/e2e-1'));
    expect(dirs.userDataDir).toBe(join(resolve('tmp/e2e-1'), OVERRIDE_PROFILE_FOLDER));
  });
});

describe('resolveRendererUrl', () => {
  const fileUrl = pathToFileURL(INDEX).href;

  it('loads the built file when packaged, even if a dev server URL is set', () => {
    expect(
      resolveRendererUrl({ isPackaged: true, devServerUrl: 'http://localhost:5173', rendererIndexPath: INDEX }),
    ).toBe(fileUrl);
  });

  it('uses a loopback dev server when unpackaged', () => {
    expect(
      resolveRendererUrl({ isPackaged: false, devServerUrl: 'http://localhost:5173', rendererIndexPath: INDEX }),
    ).toBe('http://localhost:5173/');
    expect(
      resolveRendererUrl({ isPackaged: false, devServerUrl: 'http://127.0.0.1:5173/', rendererIndexPath: INDEX }),
    ).toBe('http://127.0.0.1:5173/');
  });

  it('ignores a dev server URL that is not loopback http', () => {
    for (const devServerUrl of [
      undefined,
      '',
      'http://example.com:5173',
      'https://localhost:5173',
      'http://user:pw@localhost:5173',
      'nonsense',
    ]) {
      expect(resolveRendererUrl({ isPackaged: false, devServerUrl, rendererIndexPath: INDEX })).toBe(fileUrl);
    }
  });
});

describe('electronSqliteBindingPath', () => {
  it('points into native/electron of the project when unpackaged', () => {
    expect(electronSqliteBindingPath('/opt/cairn')).toBe(
      join('/opt/cairn', 'native', 'electron', 'better_sqlite3.node'),
    );
  });

  it('points beside the asar archive (unpacked) when packaged', () => {
    expect(electronSqliteBindingPath('/opt/Cairn/resources/app.asar')).toBe(
      join('/opt/Cairn/resources/app.asar.unpacked', 'native', 'electron', 'better_sqlite3.node'),
    );
  });
});

describe('describeStartupError', () => {
  const abiError = new Error(
    "The module 'better_sqlite3.node' was compiled against a different Node.js version using NODE_MODULE_VERSION 115. This version of Node.js requires NODE_MODULE_VERSION 143.",
  );

  it('tells the person to prepare the Electron SQLite build when the ABI is wrong', () => {
    expect(describeStartupError(abiError, null)).toMatch(
      /No SQLite module built for Electron.*prepare-electron-sqlite\.mjs/,
    );
    expect(describeStartupError(abiError, '/opt/cairn/native/electron/better_sqlite3.node')).toMatch(
      /at \/opt\/cairn\/native\/electron\/better_sqlite3\.node does not match this Electron/,
    );
  });

  it('passes a locked data directory through in its own words', () => {
    const locked = new DataDirLockedError('/data', {
      pid: 4242,
      startedAt: '2026-01-01T00:00:00.000Z',
      hostname: 'box',
    });
    expect(describeStartupError(locked, null)).toBe(locked.message);
    expect(locked.message).toContain('process 4242');
  });

  it('passes every data directory problem through in its own words', () => {
    const readOnly = new DataDirError(
      'read_only_directory',
      '/data',
      'Cairn cannot write to its data directory /data.',
    );
    expect(describeStartupError(readOnly, null)).toBe(readOnly.message);
  });

  it('wraps anything else', () => {
    expect(describeStartupError(new Error('disk full'), null)).toBe('Cairn could not open its data: disk full');
  });
});
