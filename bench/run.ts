import { loadavg } from 'node:os';
import { formatResults, type BenchResult } from './bench-result';
import { benchAcpOverhead } from './acp-overhead.bench';
import { benchBigRecord } from './big-record.bench';
import { benchBranchOpen } from './branch-open.bench';
import { benchCheckpointTurn } from './checkpoint-turn.bench';
import { benchColdStart } from './cold-start.bench';
import { benchCodexTurn } from './codex-turn.bench';
import { benchCodexWarm } from './codex-warm.bench';
import { benchContextAssembly } from './context-assembly.bench';
import { benchEndurance } from './endurance.bench';
import { benchFirstLoad } from './first-load.bench';
import { benchGitLoop } from './git-loop.bench';
import { benchIdleMemory } from './idle-memory.bench';
import { benchLedgerAppend } from './ledger-append.bench';
import { benchLongSession } from './long-session.bench';
import { benchManyAgents } from './many-agents.bench';
import { benchRendererMemory } from './renderer-memory.bench';
import { benchSandbox } from './sandbox.bench';
import { benchSessionOpen } from './session-open.bench';
import { benchStreamLatency } from './stream-latency.bench';
import { benchSubagents } from './subagents.bench';

/**
 * `npm run bench [name|all]`: every benchmark (or the one named), each printing ratios against a
 * baseline measured in the same run; `all` ends with one table of every figure. The browser benchmarks need `npm run build` and Chromium.
 */
const suites: Array<[string, () => BenchResult[] | Promise<BenchResult[]>]> = [
  ['ledger', benchLedgerAppend],
  ['cold-start', benchColdStart],
  ['session-open', benchSessionOpen],
  ['stream', benchStreamLatency],
  ['codex', benchCodexTurn],
  ['codex-warm', benchCodexWarm],
  ['acp-overhead', benchAcpOverhead],
  ['branch-open', benchBranchOpen],
  ['context', benchContextAssembly],
  ['subagents', benchSubagents],
  ['many-agents', benchManyAgents],
  ['checkpoints', benchCheckpointTurn],
  ['git-loop', benchGitLoop],
  ['idle-memory', benchIdleMemory],
  ['first-load', benchFirstLoad],
  ['long-session', benchLongSession],
  ['renderer-memory', benchRendererMemory],
  ['sandbox', benchSandbox],
  ['endurance', benchEndurance],
  ['big-record', benchBigRecord],
];

const only = process.argv[2];
if (only === 'all') {
  // Every benchmark, then all their figures in one table.
  const all: BenchResult[] = [];
  for (const [name, suite] of suites) {
    console.log(`# ${name} …`);
    all.push(
      ...(await suite()).map((result) => ({
        ...result,
        name: result.name.startsWith(`${name}:`) ? result.name : `${name}: ${result.name}`,
      })),
    );
  }
  console.log(`\n# all (load ${loadAverage()})`);
  console.log(formatResults(all));
} else {
  for (const [name, suite] of suites) {
    if (only !== undefined && only !== name) continue;
    console.log(`\n# ${name} (load ${loadAverage()})`);
    console.log(formatResults(await suite()));
  }
}

/** The machine's 1-minute load average, printed beside the figures (they are read as ratios on a busy machine). */
function loadAverage(): string {
  return (loadavg()[0] ?? 0).toFixed(2);
}
