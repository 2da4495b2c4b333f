import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DataDirError } from '../storage/data-dir-errors';

/**
 * Where the desktop app finds and keeps things. Pure functions of what Electron reports, so the
 * rules are tested without Electron.
 */

/** The Chromium profile folder used when CAIRN_DATA_DIR points the app somewhere else. */
export const OVERRIDE_PROFILE_FOLDER = 'electron-profile';

export interface DesktopDirs {
  /** The Host's data directory (database and its lock). */
  readonly dataDir: string;
  /** Electron's userData (Chromium profile, window state, single-instance lock), or null to keep the default. */
  readonly userDataDir: string | null;
}

/**
 * By default the data lives in `<userData>/data`. CAIRN_DATA_DIR (tests, a second profile) moves the
 * data there and Electron's userData inside it, so such an instance has its own single-instance
 * lock and never touches the person's real profile.
 */
export function resolveDesktopDirs(defaultUserDataDir: string, override: string | undefined): DesktopDirs {
  const trimmed = override?.trim() ?? '';
  if (trimmed === '') return { dataDir: join(defaultUserDataDir, 'data'), userDataDir: null };
  const dataDir = resolve(trimmed);
  return { dataDir, userDataDir: join(dataDir, OVERRIDE_PROFILE_FOLDER) };
}

/**
 * The renderer's address: electron-vite's dev server (ELECTRON_RENDERER_URL) when running unpackaged
 * and it is a loopback http URL, otherwise the built file out/renderer/index.html.
 */
export function resolveRendererUrl(options: {
  readonly isPackaged: boolean;
  readonly devServerUrl: string | undefined;
  readonly rendererIndexPath: string;
}): string {
  const dev = options.isPackaged ? null : loopbackHttpOrigin(options.devServerUrl);
  return dev ?? pathToFileURL(options.rendererIndexPath).href;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function loopbackHttpOrigin(text: string | undefined): string | null {
  if (text === undefined || text === '') return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' || !LOOPBACK_HOSTS.has(url.hostname) || url.username !== '' || url.password !== '')
    return null;
  return `${url.origin}/`;
}

/**
 * The better-sqlite3 binary built for Electron's ABI (scripts/prepare-electron-sqlite.mjs writes it).
 * In a packaged app it must be unpacked from the asar archive, so the path points beside it.
 */
export function electronSqliteBindingPath(appPath: string): string {
  const unpacked = appPath.replace(/\.asar$/, '.asar.unpacked');
  return join(unpacked, 'native', 'electron', 'better_sqlite3.node');
}

const WRONG_ABI =
  /NODE_MODULE_VERSION|compiled against a different Node\.js version|invalid ELF header|not a valid Win32 application|Could not locate the bindings file/;

/**
 * What to tell the person when the host cannot start. `bindingPath` is the Electron-ABI SQLite
 * binary that was passed to the host, or null when none was found and the default one was tried.
 */
export function describeStartupError(error: unknown, bindingPath: string | null): string {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof DataDirError) return message;
  if (WRONG_ABI.test(message)) {
    const what =
      bindingPath === null
        ? 'No SQLite module built for Electron was found (native/electron/better_sqlite3.node).'
        : `The SQLite module at ${bindingPath} does not match this Electron.`;
    return `${what} Run "node scripts/prepare-electron-sqlite.mjs" in the Cairn folder (npm start does this for you), then start Cairn again.`;
  }
  return `Cairn could not open its data: ${message}`;
}
