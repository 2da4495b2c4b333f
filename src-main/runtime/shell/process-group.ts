import { readdirSync, readFileSync } from 'node:fs';

/**
 * Process-group facts for the shell runner. A zombie (exited, not yet reaped by its parent, or by an
 * init that does not reap, as in some containers) counts as gone: it runs nothing and holds nothing.
 */

/** State and process group of a pid from /proc, or null where /proc cannot say. */
function procStat(pid: number): { state: string; pgrp: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) S ppid pgrp …": comm may hold spaces and parentheses, so split after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '', pgrp: Number(fields[2]) };
  } catch {
    return null;
  }
}

const isDead = (state: string) => state === 'Z' || state === 'X';

/** True when no process of the group `pgid` is still running (zombies do not count). */
export function processGroupGone(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return true;
  }
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return false; // no /proc: the signal said someone is there
  }
  return !pids.some((name) => {
    const stat = procStat(Number(name));
    return stat !== null && stat.pgrp === pgid && !isDead(stat.state);
  });
}

/** True when `pid` no longer runs (no such process, or a zombie). */
export function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return true;
  }
  const stat = procStat(pid);
  return stat !== null && isDead(stat.state);
}

/** Sends `signal` to every process of the group; false when the group no longer exists. */
export function signalProcessGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}
