import { readdirSync, readFileSync } from 'node:fs';

/** A live process and its process group, as /proc has them. */
export interface ProcessEntry {
  readonly pid: number;
  readonly pgid: number;
}

/**
 * Every live descendant of `pid` (its children, their children, …) with its process group, from
 * /proc; empty where there is no /proc. Zombies are left out: they run nothing.
 */
export function descendantsOf(pid: number): ProcessEntry[] {
  const children = new Map<number, ProcessEntry[]>();
  let names: string[];
  try {
    names = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  for (const name of names) {
    const stat = statOf(Number(name));
    if (stat === null || stat.state === 'Z' || stat.state === 'X') continue;
    children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), { pid: Number(name), pgid: stat.pgid }]);
  }
  const found: ProcessEntry[] = [];
  const queue = [...(children.get(pid) ?? [])];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    found.push(next);
    queue.push(...(children.get(next.pid) ?? []));
  }
  return found;
}

/** The process group of a live `pid`, or null. */
export function processGroupOf(pid: number): number | null {
  return statOf(pid)?.pgid ?? null;
}

function statOf(pid: number): { state: string; ppid: number; pgid: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) S ppid pgrp …": comm may hold spaces and parentheses, so split after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '', ppid: Number(fields[1]), pgid: Number(fields[2]) };
  } catch {
    return null;
  }
}

/** The arguments `pid` was started with, or null once it is gone. */
export function argumentsOf(pid: number): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, -1);
  } catch {
    return null;
  }
}
