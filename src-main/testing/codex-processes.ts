import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The running `codex app-server` processes of the Cairn host whose data directory is `dataDir`. */
export function appServerPids(dataDir: string): number[] {
  const home = `CODEX_HOME=${join(dataDir, 'codex', 'home')}`;
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        return (
          readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('app-server') &&
          readFileSync(`/proc/${name}/environ`, 'utf8').split('\0').includes(home)
        );
      } catch {
        return false; // gone meanwhile, or not ours
      }
    })
    .map(Number);
}

/** The first app-server running for the data directory, or null. */
export function appServerPid(dataDir: string): number | null {
  return appServerPids(dataDir)[0] ?? null;
}
