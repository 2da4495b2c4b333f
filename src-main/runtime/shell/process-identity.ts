import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { childEnvironment } from './child-environment';

/**
 * Who a process is, beyond its pid: a pid is reused once its process is gone, so a pid alone never
 * proves that a process is the one Cairn started. Its start time does. On Linux that is field 22 of
 * `/proc/<pid>/stat` (clock ticks since boot) with the boot id; elsewhere `ps -o lstart=` (to the
 * second). Recorded at spawn, compared before Cairn signals a process it no longer holds a handle to.
 */

/** The identity of a live `pid` (`linux:<boot id>:<start ticks>` or `ps:<start time>`), or null. */
export function processStartIdentity(pid: number): string | null {
  const linux = linuxIdentity(pid);
  if (linux !== undefined) return linux;
  try {
    const started = execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], {
      encoding: 'utf8',
      timeout: 2000,
      stdio: ['ignore', 'pipe', 'ignore'],
      env: childEnvironment({ scrubSecrets: false }),
    }).trim();
    return started === '' ? null : `ps:${started}`;
  } catch {
    return null;
  }
}

export type IdentityCheck = 'same' | 'different' | 'unknown';

/** Whether the process now at `pid` is provably the one recorded (`same`), provably not, or unknown. */
export function compareProcessIdentity(pid: number, recorded: string | null): IdentityCheck {
  if (recorded === null) return 'unknown';
  const now = processStartIdentity(pid);
  if (now === null) return 'unknown';
  if (now === recorded) return 'same';
  // Both must be the same kind of measure to tell the processes apart.
  return now.split(':')[0] === recorded.split(':')[0] ? 'different' : 'unknown';
}

/** Undefined where /proc is not Linux's; null when the process is not there. */
function linuxIdentity(pid: number): string | null | undefined {
  let bootId: string;
  try {
    bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return undefined;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) S ppid …": comm may hold spaces and parentheses; fields after it start at field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const startTicks = fields[22 - 3];
    return startTicks === undefined || startTicks === '' ? null : `linux:${bootId}:${startTicks}`;
  } catch {
    return null;
  }
}
