import type { Clock, Logger } from '../ports/ports';
import { processGone, processGroupGone, signalProcessGroup } from './process-group';
import { signalMarkedProcesses } from './escaped-processes';
import { compareProcessIdentity } from './process-identity';

/**
 * Commands a dead host left behind (ARCHITECTURE.md §4, invariant 8). A run still live in the record
 * has no handle any more; its process group may still be running, unseen. It is stopped only when it
 * is provably the same process (its recorded start identity matches), never on a pid alone: a pid may
 * belong to another program by now. Where that cannot be proven it is left alone, and the record says so.
 */

/** What became of an orphaned run's process, as its record says it (shown under the command). */
export const ORPHAN_MESSAGES = {
  no_pid: 'The app restarted without a live handle to this process',
  gone: 'The app restarted while this command ran; it was no longer running.',
  stopped: 'Cairn stopped this command, which was still running after the app restarted.',
  reused:
    'The app restarted while this command ran; it is no longer running (its process id now belongs to another program, which Cairn left alone).',
  unproven:
    'The app restarted while this command ran. Part of it may still be running, but Cairn could not prove it is this command, so it left it alone. Stop it yourself if it is.',
  stopped_by_you: 'You stopped this command, which was still running after the app restarted.',
} as const;

export type OrphanFate = 'no_pid' | 'gone' | 'stop' | 'reused' | 'unproven';

/** What to do about the process group of a run the host has no handle to. */
export function orphanFate(pid: number | null, processStart: string | null): OrphanFate {
  if (pid === null) return 'no_pid';
  if (processGroupGone(pid)) return 'gone';
  // The group outlived its leader: nothing left to compare the recorded start with.
  if (processGone(pid)) return 'unproven';
  const identity = compareProcessIdentity(pid, processStart);
  return identity === 'same' ? 'stop' : identity === 'different' ? 'reused' : 'unproven';
}

/** The record's message for a fate decided at startup. */
export function orphanMessage(fate: OrphanFate): string {
  return fate === 'stop' ? ORPHAN_MESSAGES.stopped : ORPHAN_MESSAGES[fate];
}

export interface OrphanStopper {
  /**
   * SIGTERM to the group now, SIGKILL after the grace period if it is still there (and still the
   * same); asked again during the grace period, SIGKILL at once.
   */
  stop(pid: number, processStart: string | null): void;
  /** The same for processes carrying a run's marker (escaped-processes.ts); false when there are none. */
  stopMarked(marker: string): boolean;
  /** Host shutdown: whatever still waits for its SIGKILL gets it now. */
  flush(): void;
}

export function createOrphanStopper(options: { clock: Clock; logger: Logger; graceMs?: number }): OrphanStopper {
  const pending = new Map<number | string, { kill: () => void; cancel: () => void }>();
  const signal = (pid: number, name: NodeJS.Signals) => {
    try {
      signalProcessGroup(pid, name);
    } catch (error) {
      options.logger.warn('Could not signal a left-over command', {
        pid,
        signal: name,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  };
  return {
    stop(pid, processStart) {
      const waiting = pending.get(pid);
      if (waiting !== undefined) {
        // Asked again while it has its grace period: no more grace.
        waiting.cancel();
        waiting.kill();
        return;
      }
      signal(pid, 'SIGTERM');
      const kill = () => {
        pending.delete(pid);
        if (processGroupGone(pid)) return;
        // A group id is not reused while the group exists; still, never kill a leader that is provably another process.
        if (!processGone(pid) && compareProcessIdentity(pid, processStart) === 'different') return;
        signal(pid, 'SIGKILL');
      };
      const cancel = options.clock.setTimeout(kill, options.graceMs ?? 2000);
      pending.set(pid, { kill, cancel });
    },
    stopMarked(marker) {
      if (signalMarkedProcesses(marker, 'SIGTERM') === 0) return false;
      const key = `marker:${marker}`;
      const kill = () => {
        pending.delete(key);
        signalMarkedProcesses(marker, 'SIGKILL');
      };
      const cancel = options.clock.setTimeout(kill, options.graceMs ?? 2000);
      pending.set(key, { kill, cancel });
      return true;
    },
    flush() {
      for (const { kill, cancel } of [...pending.values()]) {
        cancel();
        kill();
      }
    },
  };
}
