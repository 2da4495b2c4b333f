#!/usr/bin/env node
/**
 * `cairn`: the command editors start. `cairn acp` speaks the Agent Client Protocol on stdio for
 * Cairn's built-in agent (docs/acp.md, "Cairn as an ACP agent"). It runs the built code of this
 * checkout (out/main/acp.js), building it first when it is missing or older than the sources, with
 * the build's output on stderr: stdout carries nothing but JSON-RPC. Works from any folder.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const PROJECT_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ACP_OUTPUTS = ['out/main/acp.js', 'out/main/serve.js', 'out/renderer/index.html'];
const USAGE = `Usage: cairn acp [--data-dir DIR]   (an ACP agent on stdio, for an editor)`;

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  if (command !== 'acp') {
    process.stderr.write(`${USAGE}\n`);
    process.exit(command === '--help' || command === '-h' ? 0 : 2);
  }
  const start = await import(pathToFileURL(join(PROJECT_DIR, 'scripts', 'start.mjs')).href);
  const stale = start.isBuildStale(
    start.modificationTimes(PROJECT_DIR, ACP_OUTPUTS),
    start.newestModification(PROJECT_DIR, start.HEADLESS_SOURCES),
  );
  if (stale) {
    process.stderr.write('cairn: building Cairn first (electron-vite build)…\n');
    const built = spawnSync(process.execPath, [start.packageBin(PROJECT_DIR, 'electron-vite'), 'build'], {
      cwd: PROJECT_DIR,
      stdio: ['ignore', 2, 2],
      env: start.childEnv(process.env),
    });
    if (built.status !== 0) {
      process.stderr.write('cairn: the build failed; see its output above.\n');
      process.exit(1);
    }
  }
  const { runAcpAgent } = await import(pathToFileURL(join(PROJECT_DIR, 'out', 'main', 'acp.js')).href);
  await runAcpAgent(rest);
}

main().catch((error) => {
  process.stderr.write(`cairn: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
