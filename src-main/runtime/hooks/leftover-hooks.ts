import { randomUUID } from 'node:crypto';
import { processesMarkedWith, runMarker } from '../shell/escaped-processes';

/**
 * Hooks a dead host left running. A hook runs in a process group of its own, outside any shell run's
 * record, so the host's timeout and Stop are what end it; when the host dies, nothing would. Every hook
 * a host starts carries that host's marker (`AGENT_COMMAND_MARKER=<data directory, hashed>.hooks.<host
 * instance>.<run>`, inherited by whatever it starts, setsid included), and the next host of the same
 * data directory stops every process carrying another instance's marker before it serves. One host owns a
 * data directory at a time (its lock), so another instance's hooks are provably left over.
 */

/** The prefix of the markers this host instance's hooks carry (each run adds `.<run>`). */
export function newHookMarker(dataDir: string): string {
  return runMarker(dataDir, `hooks.${randomUUID()}`);
}

/**
 * Stops the hook processes of earlier hosts of `dataDir` (those whose marker is not under `current`): SIGTERM now,
 * SIGKILL after `graceMs` to whichever still carries such a marker. Returns how many there were.
 */
export function stopLeftoverHooks(dataDir: string, current: string, graceMs = 2_000): number {
  const prefix = runMarker(dataDir, 'hooks.');
  const leftovers = () => processesMarkedWith(prefix).filter((found) => !found.marker.startsWith(`${current}.`));
  const signal = (name: NodeJS.Signals) => {
    const found = leftovers();
    for (const { pid } of found) {
      try {
        process.kill(pid, name);
      } catch {
        // gone in the meantime
      }
    }
    return found.length;
  };
  const count = signal('SIGTERM');
  if (count > 0) setTimeout(() => signal('SIGKILL'), graceMs).unref();
  return count;
}
