import { readdirSync, readFileSync } from 'node:fs';

/**
 * The processes the soak's shell commands started, found through /proc (Linux). Every command the
 * soak sends carries a marker (`: cairn-soak-…;`) in its `bash -c` command line, so a process is
 * recognised by what it is, never by a pid alone (pids are reused).
 */

export interface MarkedProcess {
  readonly pid: number;
  /** Its process group: the shell runner starts each command in a group of its own. */
  readonly pgrp: number;
  readonly commandLine: string;
}

interface ProcStat {
  readonly state: string;
  readonly ppid: number;
  readonly pgrp: number;
}

function readStat(pid: number): ProcStat | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) S ppid pgrp …": comm may hold spaces and parentheses, so split after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '', ppid: Number(fields[1]), pgrp: Number(fields[2]) };
  } catch {
    return null;
  }
}

/** A zombie has exited (it only waits to be reaped): it runs nothing. */
const running = (stat: ProcStat | null): stat is ProcStat => stat !== null && stat.state !== 'Z' && stat.state !== 'X';

function pids(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

/** Live processes whose command line contains `marker`. */
export function markedProcesses(marker: string): MarkedProcess[] {
  const found: MarkedProcess[] = [];
  for (const pid of pids()) {
    let commandLine: string;
    try {
      commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
    } catch {
      continue;
    }
    if (!commandLine.includes(marker)) continue;
    const stat = readStat(pid);
    if (running(stat)) found.push({ pid, pgrp: stat.pgrp, commandLine });
  }
  return found;
}

/** True while some process of group `pgrp` still runs. */
export function groupAlive(pgrp: number): boolean {
  return pids().some((pid) => {
    const stat = readStat(pid);
    return running(stat) && stat.pgrp === pgrp;
  });
}

/**
 * Kills the group of a marked process (the soak cleaning up after itself), but only while the
 * group still holds a process carrying `marker`: a reused pgid is never signalled.
 */
export function killMarkedGroup(pgrp: number, marker: string): void {
  if (!markedProcesses(marker).some((process) => process.pgrp === pgrp)) return;
  try {
    process.kill(-pgrp, 'SIGKILL');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** SIGKILLs this process's children whose command line contains `text` (a host that never became ready). */
export function killChildrenMatching(text: string): void {
  for (const pid of pids()) {
    const stat = readStat(pid);
    if (!running(stat) || stat.ppid !== process.pid) continue;
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').includes(text))
        process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
}

/** Whether /proc can be read here (the process checks need it). */
export function procAvailable(): boolean {
  try {
    readFileSync('/proc/self/stat', 'utf8');
    return true;
  } catch {
    return false;
  }
}
