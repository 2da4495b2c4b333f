import type { Logger } from '../../ports/ports';

/** What quarantine needs of an agent process: its pid, a group kill with a bounded wait, a check. */
export interface EndableProcess {
  readonly pid: number | null;
  /** SIGTERM to the group, SIGKILL after `graceMs`, then waits up to `confirmMs`; true when confirmed gone. */
  terminate(graceMs: number, confirmMs: number): Promise<boolean>;
  /** Whether the group is gone now. */
  isGone(): boolean;
}

export interface QuarantineBounds {
  readonly killGraceMs: number;
  readonly killConfirmMs: number;
}

export interface QuarantineOptions {
  readonly bounds: QuarantineBounds;
  readonly logger: Logger;
  /** A session was quarantined (its process not confirmed gone, `pid`) or released from quarantine (null). */
  onChange(sessionId: string, quarantined: { pid: number | null } | null): void;
}

/**
 * The one-process-per-session rule for native agents. Ending a session's process is awaited by the
 * next start (`held`), so two processes never run on one thread, not even while the old one is being
 * killed; a process whose group cannot be confirmed gone quarantines its session until it is.
 */
export interface ProcessQuarantine {
  /** Ends the process group; quarantines the session when it cannot be confirmed gone. */
  retire(sessionId: string, process: EndableProcess): Promise<void>;
  /** Waits for a process of the session still being ended; the quarantined pid when one still lives, else null. */
  held(sessionId: string): Promise<{ pid: number | null } | null>;
  /** The pid that quarantines the session, or undefined when it is not quarantined. */
  quarantinedPid(sessionId: string): number | null | undefined;
  /** Kills a quarantined process group again, at once; true when it is gone now (or there was none). */
  forceStop(sessionId: string): Promise<boolean>;
}

export function createProcessQuarantine(options: QuarantineOptions): ProcessQuarantine {
  const quarantined = new Map<string, EndableProcess>();
  const retiring = new Map<string, Promise<void>>();

  function release(sessionId: string, old: EndableProcess): void {
    if (quarantined.get(sessionId) !== old) return;
    quarantined.delete(sessionId);
    options.onChange(sessionId, null);
  }

  function live(sessionId: string): EndableProcess | undefined {
    const old = quarantined.get(sessionId);
    if (old === undefined) return undefined;
    if (!old.isGone()) return old;
    release(sessionId, old);
    return undefined;
  }

  return {
    async retire(sessionId, process) {
      const { killGraceMs, killConfirmMs } = options.bounds;
      const ending = process.terminate(killGraceMs, killConfirmMs).then((gone) => {
        if (gone) return;
        options.logger.warn('A native agent process could not be confirmed gone; session quarantined', {
          sessionId,
          pid: process.pid,
        });
        quarantined.set(sessionId, process);
        options.onChange(sessionId, { pid: process.pid });
      });
      retiring.set(sessionId, ending);
      try {
        await ending;
      } finally {
        if (retiring.get(sessionId) === ending) retiring.delete(sessionId);
      }
    },
    async held(sessionId) {
      await retiring.get(sessionId);
      const old = live(sessionId);
      return old === undefined ? null : { pid: old.pid };
    },
    quarantinedPid(sessionId) {
      const old = quarantined.get(sessionId);
      return old === undefined || old.isGone() ? undefined : old.pid;
    },
    async forceStop(sessionId) {
      await retiring.get(sessionId);
      const old = quarantined.get(sessionId);
      if (old === undefined) return true;
      const gone = await old.terminate(0, options.bounds.killConfirmMs);
      if (gone) release(sessionId, old);
      return gone;
    },
  };
}
