import type { Configuration } from 'electron-builder';
import { resolve } from 'node:path';
import { electronVersion } from './scripts/electron-version.mjs';

/**
 * `npm run dist`: installers for Linux (AppImage, deb), macOS (dmg) and Windows (nsis). Build each
 * platform's installer on that platform: `npm run dist` first builds out/ and better-sqlite3 for the
 * installed Electron (scripts/prepare-electron-sqlite.mjs writes native/electron/), and that binary
 * is for the machine it runs on.
 *
 * The app is the built output and package.json (and the production dependencies electron-builder
 * adds from package.json); no sources, tests or dotfiles. better-sqlite3 is loaded at run time from
 * native/electron/better_sqlite3.node through its `nativeBinding` option, which must be outside the
 * asar archive (src-main/electron/desktop-paths.ts looks in app.asar.unpacked/native/electron/).
 */
const config: Configuration = {
  appId: 'dev.cairn.desktop',
  productName: 'Cairn',
  // From node_modules/electron, else package-lock.json: the same version the build targets.
  electronVersion: electronVersion(resolve('.')) ?? undefined,
  directories: { output: 'dist', buildResources: 'build' },
  icon: 'build/icon.png',
  files: [
    'package.json',
    'out/**/*',
    'native/electron/**/*',
    '!**/*.map',
    // better-sqlite3's C sources and SQLite's amalgamation are not needed at run time.
    '!node_modules/better-sqlite3/{deps,src}/**',
  ],
  asar: true,
  asarUnpack: ['native/electron/**', 'node_modules/better-sqlite3/**'],
  // The Electron build of better-sqlite3 is native/electron/ (made by prepare-electron-sqlite before
  // electron-builder runs). electron-builder's own rebuild would rewrite node_modules/better-sqlite3
  // in place for Electron and break the Node build the tests and the headless host use.
  npmRebuild: false,
  linux: {
    target: ['AppImage', 'deb'],
    category: 'Development',
    maintainer: 'Cairn <cairn@localhost>',
    synopsis: 'A local-first desktop workspace for working with AI agents',
  },
  mac: { target: ['dmg'], category: 'public.app-category.developer-tools' },
  win: { target: ['nsis'] },
  nsis: { oneClick: false, allowToChangeInstallationDirectory: true },
  publish: null,
};

export default config;
