import { configDefaults, defineConfig } from 'vitest/config';

const ALL = ['src-*/**/*.test.ts', 'src-*/**/*.test.tsx', 'scripts/**/*.test.ts'];
/**
 * Files whose tests hold no state in the modules they load run one after another in a worker without
 * a fresh module graph each (`isolate: false`): re-importing the renderer or the stores for every file
 * cost two to three times the CPU time of the tests themselves. Everything else (host processes,
 * process-wide state, the runtime) keeps a fresh module graph per file.
 */
const SHARED_GRAPH = ['src-renderer/**/*.test.{ts,tsx}', 'src-shared/**/*.test.ts', 'src-main/storage/**/*.test.ts'];
/** Under SHARED_GRAPH, but they need a fresh module graph (e.g. they watch a lazy import load). */
const NEEDS_ISOLATION = ['src-renderer/components/Markdown.test.tsx'];

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Tests start host processes and SQLite databases; two cores run two files at a time.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'shared-graph',
          include: SHARED_GRAPH,
          exclude: [...configDefaults.exclude, ...NEEDS_ISOLATION],
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'isolated', include: ALL, exclude: [...configDefaults.exclude, ...SHARED_GRAPH] },
      },
      { extends: true, test: { name: 'isolated-exceptions', include: NEEDS_ISOLATION } },
    ],
  },
});
