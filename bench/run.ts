import { formatResults, type BenchResult } from './bench-result';
import { benchLedgerAppend } from './ledger-append.bench';

/** `npm run bench`: every benchmark, each printing ratios against a baseline measured in the same run. */
const suites: Array<[string, () => BenchResult[] | Promise<BenchResult[]>]> = [['ledger', benchLedgerAppend]];

const only = process.argv[2];
for (const [name, suite] of suites) {
  if (only !== undefined && only !== name) continue;
  console.log(`\n# ${name}`);
  console.log(formatResults(await suite()));
}
