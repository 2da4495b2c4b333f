import { configDefaults, defineConfig } from 'vitest/config';

const ALL = ['src-*/**/*.test.ts', 'src-*/**/*.test.tsx', 'scripts/**/*.test.ts'];
/**
 * Files whose tests hold no state in the modules they load run one after another in a worker without
 * a fresh module graph each (`isolate: false`): re-importing the renderer or the stores for every file
 * cost two to three times the CPU time of the tests themselves. Everything else (host processes,
 * process-wide state, the runtime) keeps a fresh module graph per file.
 */
export const SHARED_GRAPH = [
  'src-renderer/**/*.test.{ts,tsx}',
  'src-shared/**/*.test.ts',
  'src-main/storage/**/*.test.ts',
  // The runtime's pure parts (no host, no process-wide state): 67 of these files took 99 s with a fresh
  // graph each and 32 s sharing one, back to back on the same machine (18 more, in folders renamed or
  // added since: 13.2 → 6.7 CPU-s). A folder here that matches no test file (renamed, say) fails
  // scripts/vitest-config.test.ts.
  'src-main/runtime/{automations,branches,checkpoints,compaction,composition,context,conversations,hooks,interactions,mcp,memory,sessions,skills,subagents,turns,workspace}/**/*.test.ts',
  'src-main/runtime/agent-backends/{builtin,agent-process}/**/*.test.ts',
  // Codex's and the ACP agents' tests, and Cairn as an ACP agent: each starts its own in-process host and
  // real agent processes, and leaves neither behind (an environment variable one sets, it restores).
  'src-main/runtime/agent-backends/{acp,codex}/**/*.test.ts',
  'src-main/acp-agent/**/*.test.ts',
  'src-main/runtime/connections/**/*.test.ts',
  // The in-process host's tests (each test starts its own host on its own data directory, and closes it):
  // 52 files took 188 CPU-s with a fresh graph each, 123 sharing one (same machine, under load).
  // Those that start MCP servers, the sandbox or 300 turns time out at load 40 either way, and pass
  // sharing a graph at load 20.
  'src-main/host/**/*.test.ts',
  'src-main/testing/provider-servers/**/*.test.ts',
  'src-main/electron/**/*.test.ts',
];
/** Under SHARED_GRAPH, but they need a fresh module graph (they watch a lazy import load, mock a module, or set the environment). */
export const NEEDS_ISOLATION = [
  'src-renderer/components/Markdown.test.tsx',
  'src-main/electron/main.test.ts',
  'src-main/electron/window-factory.test.ts',
];

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 20_000,
    // Bundles the programs tests start as processes (test agents, MCP servers), so none loads tsx.
    globalSetup: ['src-main/testing/test-programs-setup.ts'],
    hookTimeout: 20_000,
    // Tests start host processes and SQLite databases; two cores run two files at a time.
    // CAIRN_UNIT_WORKERS overrides it (1 for a machine busy with something else).
    maxWorkers: Number(process.env.CAIRN_UNIT_WORKERS ?? '') || 2,
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
