import type { ShellRunRecord } from '../../../src-shared/shell-run-model';
import type { ShellRunStore } from '../../storage/shell-run-store';
import type { EventBus } from '../ports/event-bus';
import type { Clock, Ids } from '../ports/ports';
import { lastChars } from './shell-output';

/** Where a command an agent runs itself belongs. */
export interface AgentCommandStart {
  readonly sessionId: string;
  readonly turnId: string;
  readonly runId: string;
  readonly toolCallId: string;
  readonly command: string;
  readonly cwd: string;
}

/** How such a command ended, as the agent reported it. */
export interface AgentCommandEnd {
  readonly status: 'exited' | 'killed';
  readonly exitCode: number | null;
  /** Why it ended abnormally, for a person; null when it simply exited. */
  readonly failureMessage: string | null;
  /** The agent's full output of it, when it gives one (it replaces what streamed). */
  readonly output: string | null;
}

/**
 * Commands a native agent (Codex) runs in its own sandbox, kept as shell runs like Cairn's own
 * run_shell: a durable record (live, then how it ended) announced as `shell.changed`, and its output
 * published as it arrives (`shell.output`), so the transcript shows the same live terminal.
 */
export interface AgentCommandLog {
  begin(start: AgentCommandStart): string;
  output(shellRunId: string, text: string): void;
  end(shellRunId: string, ending: AgentCommandEnd): void;
  /** How Stop (`shell.kill`) reaches a live command the agent left running: true when it is stopped. */
  stoppable(shellRunId: string, stop: () => Promise<boolean>): void;
  /** Stops a live command of an agent; null when no agent command of that id can be stopped. */
  stop(shellRunId: string): Promise<boolean | null>;
}

export interface AgentCommandLogDeps {
  readonly store: Pick<ShellRunStore, 'insert' | 'markRunning' | 'recordOutput' | 'finish'>;
  readonly bus: EventBus;
  readonly clock: Clock;
  readonly ids: Ids;
  /** Characters of output kept as the record's tail. */
  readonly tailChars?: number;
  /** At most one save of the tail per this many milliseconds while output streams (the end always saves). */
  readonly saveIntervalMs?: number;
}

interface LiveCommand {
  readonly sessionId: string;
  output: string;
  truncated: boolean;
  savedAt: number;
}

export function createAgentCommandLog(deps: AgentCommandLogDeps): AgentCommandLog {
  const tailChars = deps.tailChars ?? 64 * 1024;
  const saveIntervalMs = deps.saveIntervalMs ?? 250;
  const live = new Map<string, LiveCommand>();
  const stoppers = new Map<string, () => Promise<boolean>>();
  const publish = (record: ShellRunRecord) => deps.bus.publish({ kind: 'shell.changed', shellRun: record });
  const tails = (command: LiveCommand) => ({
    stdoutTail: command.output,
    stderrTail: '',
    stdoutTruncated: command.truncated,
    stderrTruncated: false,
  });

  return {
    begin(start) {
      const shellRunId = deps.ids.next('shell_run');
      const now = deps.clock.now();
      deps.store.insert({ ...start, shellRunId, now });
      // The agent owns the process: Cairn records no pid, so a restart marks it orphaned, never kills a guess.
      publish(deps.store.markRunning(shellRunId, null));
      live.set(shellRunId, { sessionId: start.sessionId, output: '', truncated: false, savedAt: now });
      return shellRunId;
    },
    output(shellRunId, text) {
      const command = live.get(shellRunId);
      if (command === undefined || text === '') return;
      const kept = lastChars(command.output + text, tailChars);
      command.output = kept.text;
      command.truncated ||= kept.cut;
      const now = deps.clock.now();
      if (now - command.savedAt >= saveIntervalMs) {
        deps.store.recordOutput(shellRunId, tails(command));
        command.savedAt = now;
      }
      deps.bus.publish({ kind: 'shell.output', sessionId: command.sessionId, shellRunId, stream: 'stdout', text });
    },
    end(shellRunId, ending) {
      const command = live.get(shellRunId);
      if (command === undefined) return;
      live.delete(shellRunId);
      stoppers.delete(shellRunId);
      if (ending.output !== null) {
        const kept = lastChars(ending.output, tailChars);
        command.output = kept.text;
        command.truncated = kept.cut;
      }
      const { status, exitCode, failureMessage } = ending;
      publish(
        deps.store.finish(shellRunId, {
          ...tails(command),
          status,
          exitCode,
          signal: null,
          failureMessage,
          now: deps.clock.now(),
        }),
      );
    },
    stoppable(shellRunId, stop) {
      if (live.has(shellRunId)) stoppers.set(shellRunId, stop);
    },
    async stop(shellRunId) {
      const stop = stoppers.get(shellRunId);
      return stop === undefined ? null : stop();
    },
  };
}
