import { formatResults, type BenchResult } from './bench-result';
import { benchBranchOpen } from './branch-open.bench';
import { benchCheckpointTurn } from './checkpoint-turn.bench';
import { benchColdStart } from './cold-start.bench';
import { benchCodexTurn } from './codex-turn.bench';
import { benchContextAssembly } from './context-assembly.bench';
import { benchFirstLoad } from './first-load.bench';
import { benchIdleMemory } from './idle-memory.bench';
import { benchLedgerAppend } from './ledger-append.bench';
import { benchSessionOpen } from './session-open.bench';
import { benchStreamLatency } from './stream-latency.bench';
import { benchSubagents } from './subagents.bench';

/**
 * `npm run bench [name]`: every benchmark (or the one named), each printing ratios against a
 * baseline measured in the same run. The browser benchmarks need `npm run build` and Chromium.
 */
const suites: Array<[string, () => BenchResult[] | Promise<BenchResult[]>]> = [
  ['ledger', benchLedgerAppend],
  ['cold-start', benchColdStart],
  ['session-open', benchSessionOpen],
  ['stream', benchStreamLatency],
  ['codex', benchCodexTurn],
  ['branch-open', benchBranchOpen],
  ['context', benchContextAssembly],
  ['subagents', benchSubagents],
  ['checkpoints', benchCheckpointTurn],
  ['idle-memory', benchIdleMemory],
  ['first-load', benchFirstLoad],
];

const only = process.argv[2];
for (const [name, suite] of suites) {
  if (only !== undefined && only !== name) continue;
  console.log(`\n# ${name}`);
  console.log(formatResults(await suite()));
}
