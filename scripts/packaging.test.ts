import { existsSync, readdirSync, readFileSync, statSync, type Stats } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
// electron-builder's own config loader, schema validation and file matcher (app-builder-lib is the
// library behind the electron-builder CLI), so these tests judge the config as `npm run dist` would.
import { FileMatcher } from 'app-builder-lib/out/fileMatcher';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config';
import { DebugLogger } from 'builder-util';
import { describe, expect, it } from 'vitest';
import config from '../electron-builder';
import { electronVersion } from './electron-version.mjs';

/**
 * `npm run dist` cannot run here (it downloads Electron), so this checks what can be checked: the
 * configuration electron-builder loads is valid, and the project files it would put in the app are
 * the built output and package.json — no sources, tests or dotfiles.
 */

const ROOT = resolve(import.meta.dirname, '..');
const SKIPPED_DIRS = new Set(['node_modules', '.git']);

/** Every file electron-builder's matcher for `files` accepts, walking the real tree as its copier does. */
function packagedProjectFiles(patterns: string[]): string[] {
  const filter = new FileMatcher(ROOT, join(ROOT, 'dist', 'app'), (pattern) => pattern, patterns).createFilter();
  const accepted: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (dir === ROOT && SKIPPED_DIRS.has(name)) continue;
      const stats = statSync(path);
      if (!filter(path, stats)) continue;
      if (stats.isDirectory()) walk(path);
      else accepted.push(relative(ROOT, path).split(sep).join('/'));
    }
  };
  walk(ROOT);
  return accepted.sort();
}

const fileStats = { isDirectory: () => false, isFile: () => true } as Stats;

describe('electron-builder configuration', () => {
  it('loads from electron-builder.ts and passes electron-builder’s schema validation', async () => {
    const loaded = await getConfig(ROOT, null, null);
    await expect(validateConfiguration(loaded, new DebugLogger(false))).resolves.toBeUndefined();
    expect(loaded.productName).toBe('Cairn');
    expect(loaded.appId).toBe('dev.cairn.desktop');
  });

  it('rejects what the schema does not know (so the test above could fail)', async () => {
    const loaded = await getConfig(ROOT, null, null);
    await expect(
      validateConfiguration({ ...loaded, notAnOption: true } as typeof loaded, new DebugLogger(false)),
    ).rejects.toThrow(/unknown property 'notAnOption'/);
  });

  it('builds AppImage and deb, dmg, and nsis, with the 512×512 icon and the locked Electron version', () => {
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
    expect(config.mac?.target).toEqual(['dmg']);
    expect(config.win?.target).toEqual(['nsis']);
    expect(config.electronVersion).toBe(electronVersion(ROOT));
    const png = readFileSync(join(ROOT, String(config.icon)));
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([512, 512]);
  });

  it('keeps better-sqlite3 for Electron outside the asar archive, and does not rebuild node_modules in place', () => {
    expect(config.asar).toBe(true);
    expect(config.asarUnpack).toEqual(expect.arrayContaining(['native/electron/**', 'node_modules/better-sqlite3/**']));
    expect(config.npmRebuild).toBe(false);
  });
});

describe('the files it would package', () => {
  const patterns = config.files as string[];

  it('are the built output and package.json, and nothing else from the project', () => {
    if (!existsSync(join(ROOT, 'out', 'main', 'index.js')))
      throw new Error('out/ is missing: run `npm run build` first (this test reads the build output).');
    const files = packagedProjectFiles(patterns);
    expect(files).toEqual(
      expect.arrayContaining(['package.json', 'out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html']),
    );
    expect(
      files.filter(
        (file) => file !== 'package.json' && !file.startsWith('out/') && !file.startsWith('native/electron/'),
      ),
    ).toEqual([]);
    expect(files.filter((file) => /\.(test|spec)\.|\.map$|\.tsx?$/.test(file))).toEqual([]);
  });

  it('never take sources, tests, secrets or dotfiles, even ones that are not in the tree today', () => {
    const filter = new FileMatcher(ROOT, join(ROOT, 'dist', 'app'), (pattern) => pattern, patterns).createFilter();
    for (const path of [
      '.env',
      '.env.local',
      'src-main/serve.ts',
      'src-main/storage/database.test.ts',
      'e2e/chat.spec.ts',
      'scripts/start.mjs',
      'README.md',
      'out/main/index.js.map',
    ]) {
      expect(filter(join(ROOT, path), fileStats), path).toBe(false);
    }
    expect(filter(join(ROOT, 'out/main/index.js'), fileStats)).toBe(true);
  });
});
