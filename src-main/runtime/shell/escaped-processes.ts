import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * Processes a command started that left its process group: `setsid`, a daemon's double fork. A
 * signal to the group no longer reaches them, so each command's environment carries a marker
 * (`AGENT_COMMAND_MARKER=<data directory>.<shell run id>`, unique on the machine) that every
 * descendant inherits, and Cairn finds them by it in `/proc/<pid>/environ`: on Stop, on a timeout,
 * when the command ends leaving them behind, and at the next start after a crash. Best effort: a
 * process that clears its environment (`env -i`) is not found, and where there is no /proc (macOS)
 * nothing is. The marker names no secret and is not one of Cairn's `CAIRN_*` variables.
 */

export const RUN_MARKER_VARIABLE = 'AGENT_COMMAND_MARKER';

/** The marker of one shell run: its data directory (hashed) and its id, so no other host's run shares it. */
export function runMarker(scope: string, shellRunId: string): string {
  return `${createHash('sha256').update(scope).digest('hex').slice(0, 16)}.${shellRunId}`;
}

/** Live processes (other than this one) whose environment carries `marker`; empty where /proc cannot say. */
export function markedProcesses(marker: string): number[] {
  return processesMarkedWith(marker)
    .filter((found) => found.marker === marker)
    .map((found) => found.pid);
}

/** Live processes (other than this one) whose marker starts with `prefix`, with that marker. */
export function processesMarkedWith(prefix: string): Array<{ readonly pid: number; readonly marker: string }> {
  const needle = Buffer.from(`${RUN_MARKER_VARIABLE}=${prefix}`);
  let names: string[];
  try {
    names = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const found: Array<{ pid: number; marker: string }> = [];
  for (const name of names) {
    const pid = Number(name);
    if (pid === process.pid) continue;
    let environ: Buffer;
    try {
      environ = readFileSync(`/proc/${pid}/environ`);
    } catch {
      continue;
    }
    let at = environ.indexOf(needle);
    while (at > 0 && environ[at - 1] !== 0) at = environ.indexOf(needle, at + 1);
    if (at < 0) continue;
    const end = environ.indexOf(0, at);
    const entry = environ.subarray(at, end < 0 ? environ.length : end).toString('utf8');
    found.push({ pid, marker: entry.slice(RUN_MARKER_VARIABLE.length + 1) });
  }
  return found;
}

/** Sends `signal` to every process carrying `marker`; how many there were. */
export function signalMarkedProcesses(marker: string, signal: NodeJS.Signals): number {
  const pids = markedProcesses(marker);
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // Gone in the meantime.
    }
  }
  return pids.length;
}
