import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { randomSeed } from './rng';
import { cleanUpProcesses, formatReport, passed, runSoak } from './soak-run';

/**
 * `npm run soak -- [--seed N] [--kills N] [--data-dir DIR]`: SIGKILLs a real headless host at random
 * moments while it streams, runs shell commands, waits on questions, works on goals and holds queued
 * follow-ups; restarts it on the same data directory after each kill and checks that nothing
 * acknowledged was lost, no run is left running, no process is left alive unseen, and every
 * interrupted turn resumes. Exits 1 when any of that failed. Linux only (it reads /proc).
 */
const USAGE = `Usage: npm run soak -- [--seed N] [--kills N] [--data-dir DIR]
  --seed      the random schedule's seed (default: a new one, printed)
  --kills     how many times to SIGKILL the host (default 100)
  --data-dir  the host's data directory (default: a temporary one, removed at the end)`;

function parseOptions() {
  const { values } = parseArgs({
    options: {
      seed: { type: 'string' },
      kills: { type: 'string' },
      'data-dir': { type: 'string' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help === true) {
    console.log(USAGE);
    process.exit(0);
  }
  const integer = (name: string, text: string | undefined, fallback: number, min: number) => {
    if (text === undefined) return fallback;
    const value = Number(text);
    if (!Number.isSafeInteger(value) || value < min)
      throw new Error(`--${name} must be a whole number of at least ${min}, not "${text}"`);
    return value;
  };
  return {
    seed: integer('seed', values.seed, randomSeed(), 0),
    kills: integer('kills', values.kills, 100, 1),
    dataDir: values['data-dir'] === undefined ? null : resolve(values['data-dir']),
  };
}

let options;
try {
  options = parseOptions();
} catch (error) {
  console.error(`soak: ${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  process.exit(2);
}
const { seed } = options;
console.log(`Soak: seed ${seed}, ${options.kills} kills (repeat with --seed ${seed})`);
// Ctrl+C: the host gets the signal too and shuts down; the shell commands run in groups of their own.
process.once('SIGINT', () => {
  cleanUpProcesses(seed);
  console.error('soak: interrupted');
  process.exit(130);
});
try {
  const report = await runSoak({ ...options, log: (line) => console.log(line) });
  console.log(formatReport(report));
  process.exit(passed(report) ? 0 : 1);
} catch (error) {
  console.error(`soak: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(2);
}
