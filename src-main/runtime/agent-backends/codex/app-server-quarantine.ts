import type { CodexQuarantine } from '../../../../src-shared/codex-model';
import { AgentBackendError } from '../../contract/agent-backend';
import {
  createProcessQuarantine,
  type EndableProcess,
  type ProcessQuarantine,
} from '../agent-process/process-quarantine';
import { RecordedProcess } from '../agent-process/recorded-process';
import type { CodexBackendDeps } from './codex-backend-deps';
import type { CodexBounds } from './live-app-server';

/** Ending the sessions' app-servers, and the sessions held while one cannot be confirmed gone. */
export interface AppServerQuarantine {
  readonly processes: ProcessQuarantine;
  /** Ends a process of the session; its record says whether it is gone or quarantines the session. */
  retireProcess(sessionId: string, process: EndableProcess): Promise<void>;
  /** The app-servers a previous host left behind, stopped (or their sessions quarantined). */
  stopLeftovers(): void;
  /** Waits for an app-server of the session still being ended; refuses while one is quarantined. */
  held(sessionId: string): Promise<void>;
  quarantineOf(sessionId: string): CodexQuarantine | null;
  forceStop(sessionId: string): Promise<boolean>;
}

/**
 * A session whose app-server could not be confirmed stopped is quarantined: no new one starts on the
 * same thread until it is gone or the person uses Force stop. `isClosed` says the host is shutting
 * down, when late exits no longer touch the record (its database is closing).
 */
export function createAppServerQuarantine(
  deps: CodexBackendDeps,
  bounds: CodexBounds,
  isClosed: () => boolean,
): AppServerQuarantine {
  const processes = createProcessQuarantine({
    bounds,
    logger: deps.logger,
    onChange: (sessionId, quarantined) =>
      deps.onQuarantine(sessionId, quarantined === null ? null : quarantineOf(sessionId)),
  });

  function quarantineOf(sessionId: string): CodexQuarantine | null {
    const pid = processes.quarantinedPid(sessionId);
    return pid === undefined ? null : { sessionId, pid, message: quarantineMessage(pid) };
  }

  async function retireProcess(sessionId: string, process: EndableProcess): Promise<void> {
    await processes.retire(sessionId, process);
    if (process.pid === null || isClosed()) return;
    if (processes.quarantinedPid(sessionId) === process.pid)
      deps.appServers.setState(sessionId, process.pid, 'quarantined', deps.now());
    else deps.appServers.gone(sessionId, process.pid);
  }

  /**
   * App-servers a previous host left behind (it died, or could not stop them): a provably-same one is
   * stopped (TERM, then KILL of its group) before the session starts another; one that cannot be
   * confirmed gone keeps its session quarantined. Until that is settled, a turn of the session waits.
   */
  function stopLeftovers(): void {
    for (const record of deps.appServers.live()) {
      const leftover = new RecordedProcess(record.pid, record.processStart);
      const fate = leftover.fate();
      if (fate === 'gone' || fate === 'other') {
        deps.appServers.gone(record.sessionId, record.pid);
        continue;
      }
      deps.logger.warn('A Codex app-server of a previous host is still running; stopping it', {
        sessionId: record.sessionId,
        pid: record.pid,
        fate,
      });
      void processes.retire(record.sessionId, leftover).then(() => {
        if (isClosed()) return;
        if (processes.quarantinedPid(record.sessionId) === record.pid) {
          deps.appServers.setState(record.sessionId, record.pid, 'quarantined', deps.now());
          return;
        }
        deps.appServers.setState(record.sessionId, record.pid, 'leftover_stopped', deps.now());
        deps.onLeftoverStopped(record.sessionId, record.pid);
      });
    }
  }

  async function held(sessionId: string): Promise<void> {
    const old = await processes.held(sessionId);
    if (old !== null) throw new AgentBackendError('codex_quarantined', quarantineMessage(old.pid), 'codex_quarantined');
  }

  async function forceStop(sessionId: string): Promise<boolean> {
    const pid = processes.quarantinedPid(sessionId);
    const stopped = await processes.forceStop(sessionId);
    if (stopped && pid != null) deps.appServers.gone(sessionId, pid);
    return stopped;
  }

  return { processes, retireProcess, stopLeftovers, held, quarantineOf, forceStop };
}

function quarantineMessage(pid: number | null): string {
  return `The previous Codex app-server of this session (pid ${pid ?? '?'}) could not be confirmed stopped, so no new one starts on the same thread. Use Force stop, then send again.`;
}
