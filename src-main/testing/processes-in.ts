import { readdirSync, readlinkSync } from 'node:fs';

/** Pids of the processes whose working folder is `folder` (or inside it), from /proc: what a command left running there. */
export function processesIn(folder: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cwd = readlinkSync(`/proc/${name}/cwd`);
      if (cwd === folder || cwd.startsWith(`${folder}/`)) pids.push(Number(name));
    } catch {
      // gone, or not ours to read
    }
  }
  return pids;
}
