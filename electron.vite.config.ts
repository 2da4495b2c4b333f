import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import { resolve } from 'node:path';

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
        input: { index: resolve('src-main/electron/main.ts') },
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
    plugins: [react()],
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
