import { existsSync } from 'node:fs';
import { processGone, processGroupGone, signalProcessGroup } from '../../shell/process-group';
import { descendantsOf, processGroupOf, type ProcessEntry } from '../../shell/process-tree';
import { waitUntil } from '../agent-process/agent-process';

/**
 * The processes a Codex turn's commands run in. Codex spawns each command as a child of its
 * app-server (in a process group of its own); the ones there when the turn began belong to earlier
 * turns (a command left running in the background), so a turn's are the descendants that were not.
 */
export class TurnProcesses {
  private constructor(
    private readonly appServerPid: number,
    private readonly before: ReadonlySet<number>,
  ) {}

  /** Notes the app-server's descendants as the turn begins; null where /proc cannot tell them. */
  static begin(appServerPid: number | null): TurnProcesses | null {
    if (appServerPid === null || !existsSync('/proc/self/stat')) return null;
    return new TurnProcesses(appServerPid, new Set(descendantsOf(appServerPid).map((entry) => entry.pid)));
  }

  /** The app-server's own process group (its commands run in groups of their own). */
  get ownGroup(): number {
    return processGroupOf(this.appServerPid) ?? this.appServerPid;
  }

  /** The turn's command processes running now. */
  current(): ProcessEntry[] {
    return descendantsOf(this.appServerPid).filter((entry) => !this.before.has(entry.pid));
  }

  /**
   * Ends `processes` (found with `current`, before the app-server could be ended and they lost their
   * parent): each process group of its own with SIGTERM, then SIGKILL after `graceMs`; a process in
   * the app-server's own group alone. True when every one is confirmed gone within the bounds.
   */
  stop(processes: readonly ProcessEntry[], graceMs: number, confirmMs: number): Promise<boolean> {
    return stopProcesses(this.ownGroup, processes, graceMs, confirmMs);
  }
}

/**
 * Ends `processes`: each process group other than `ownGroup` (the app-server's) with SIGTERM, then
 * SIGKILL after `graceMs`; a process in `ownGroup` alone. True when all are confirmed gone in time.
 */
export async function stopProcesses(
  ownGroup: number,
  processes: readonly ProcessEntry[],
  graceMs: number,
  confirmMs: number,
): Promise<boolean> {
  const groups = [...new Set(processes.filter((entry) => entry.pgid !== ownGroup).map((entry) => entry.pgid))];
  const loose = processes.filter((entry) => entry.pgid === ownGroup).map((entry) => entry.pid);
  const gone = () => groups.every(processGroupGone) && loose.every(processGone);
  const signal = (name: NodeJS.Signals) => {
    for (const group of groups) signalProcessGroup(group, name);
    for (const pid of loose) killQuietly(pid, name);
  };
  if (gone()) return true;
  signal('SIGTERM');
  if (await waitUntil(gone, graceMs)) return true;
  signal('SIGKILL');
  return waitUntil(gone, confirmMs);
}

function killQuietly(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // gone already
  }
}
