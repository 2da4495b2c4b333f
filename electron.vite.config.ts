import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import { resolve } from 'node:path';
import type { Plugin } from 'vite';
import { ensureElectronMajorVersion } from './scripts/electron-version.mjs';

// electron-vite picks its Node and Chrome targets, and the main bundle's format (ES modules from
// Electron 28), from Electron's major version. `electron` is an optional dependency that npm drops
// where its binary cannot be downloaded, so the version comes from the project's files instead.
ensureElectronMajorVersion(process.env, resolve('.'));

/**
 * The renderer's CSP is strict (no inline scripts or styles). Vite's dev server injects an inline
 * React-refresh preamble and styles, so under `npm run dev` only the meta tag is relaxed; builds keep it.
 */
function devCspRelaxation(): Plugin {
  return {
    name: 'cairn-dev-csp',
    apply: 'serve',
    transformIndexHtml: (html) =>
      html
        .replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
        .replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
        .replace('connect-src', 'connect-src ws: http://localhost:* http://127.0.0.1:*'),
  };
}

/**
 * Builds the three Electron targets into out/: main (src-main/electron), the sandboxed preload
 * (one CommonJS file requiring only `electron`), and the renderer (served by the headless host too).
 */
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // better-sqlite3 is a native module: it must stay a runtime require (and be unpacked from asar).
      externalizeDeps: true,
      rollupOptions: {
        // serve.js is the headless host, built beside the desktop main (the e2e suite and `npm start`
        // without Electron run it: a built host starts in a fraction of the time tsx needs).
        // acp.js is `cairn acp` (bin/cairn.mjs): an editor's ACP agent, a client of the host's local socket.
        input: {
          index: resolve('src-main/electron/main.ts'),
          serve: resolve('src-main/serve.ts'),
          acp: resolve('src-main/acp-agent/acp-main.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve('src-preload/preload.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve('src-renderer'),
    plugins: [react(), devCspRelaxation()],
    build: {
      outDir: resolve('out/renderer'),
      emptyOutDir: true,
      minify: true,
      rollupOptions: {
        input: { index: resolve('src-renderer/index.html') },
      },
    },
  },
});
