import { _electron as electron, expect, test } from '@playwright/test';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prepareElectronSqlite } from '../scripts/prepare-electron-sqlite.mjs';
import {
  DESKTOP_OUTPUTS,
  DESKTOP_SOURCES,
  electronBinary,
  isBuildStale,
  newestModification,
} from '../scripts/start.mjs';

/**
 * The desktop journey through the real Electron app (ARCHITECTURE.md §7): the same renderer, the
 * preload's window.cairn and the IPC transport instead of the WebSocket. It runs only where the
 * Electron binary is installed and says plainly that it was skipped elsewhere.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SKIP_REASON =
  'Electron binary not installed (ELECTRON_SKIP_BINARY_DOWNLOAD or no network): the desktop journey runs only where Electron is installed';

function assertBuilt() {
  const missing = DESKTOP_OUTPUTS.filter((path) => !existsSync(join(ROOT, path)));
  if (missing.length > 0) throw new Error(`${missing.join(', ')} missing: run \`npm run build\` first.`);
  const times = DESKTOP_OUTPUTS.map((path) => newestModification(ROOT, [path]));
  if (isBuildStale(times, newestModification(ROOT, DESKTOP_SOURCES))) {
    throw new Error(
      'out/ is older than the sources: run `npm run build` first, so the app under test is the current code.',
    );
  }
}

/** The environment for the app: a fresh data directory, and never ELECTRON_RUN_AS_NODE. */
function appEnv(dataDir: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && key !== 'ELECTRON_RUN_AS_NODE') env[key] = value;
  return { ...env, CAIRN_DATA_DIR: dataDir };
}

test('the desktop app: a new session streams the scripted reply and the host drains on quit', async () => {
  const electronPath = electronBinary(ROOT);
  if (electronPath === null) test.skip(true, SKIP_REASON);
  assertBuilt();
  prepareElectronSqlite({ projectDir: ROOT, log: () => {} });

  const dataDir = mkdtempSync(join(tmpdir(), 'cairn-electron-e2e-'));
  const app = await electron.launch({ executablePath: electronPath!, args: ['.'], cwd: ROOT, env: appEnv(dataDir) });
  try {
    const window = await app.firstWindow();

    // The page has the bridge and nothing else from Node or Electron (webPreferences are asserted in
    // src-main/electron/window-factory.test.ts; Electron does not report them back at run time).
    const surface = await window.evaluate(() => {
      const page = globalThis as unknown as { cairn?: object; require?: unknown; process?: unknown };
      return {
        cairn: Object.keys(page.cairn ?? {}).sort(),
        require: typeof page.require,
        process: typeof page.process,
      };
    });
    expect(surface).toEqual({ cairn: ['invoke', 'subscribe'], require: 'undefined', process: 'undefined' });

    await window.getByRole('button', { name: 'New session', exact: true }).first().click();
    const composer = window.getByRole('textbox', { name: 'Message' });
    await composer.fill('/stream 30 40');
    await composer.press('Enter');

    const reply = window.locator('[data-testid="message"][data-kind="assistant_message"]').last();
    // Seen partway (streaming over IPC), then whole.
    await expect(reply).toContainText('chunk 3/30');
    await expect(reply).toContainText('chunk 30/30.');
    await expect(window.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');
    await expect(composer).toHaveValue('');
  } finally {
    await app.close();
  }
  try {
    // Quitting drained the host, which released the data directory's lock.
    expect(existsSync(join(dataDir, 'cairn.lock'))).toBe(false);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
