import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { ShellRunRecord } from '../../../src-shared/shell-run-model';
import type { ShellRunStore } from '../../storage/shell-run-store';
import type { Clock, Logger } from '../ports/ports';
import { silentLogger } from '../ports/ports';
import { childEnvironment } from './child-environment';
import { markedProcesses, RUN_MARKER_VARIABLE, runMarker, signalMarkedProcesses } from './escaped-processes';
import { processGroupGone, signalProcessGroup } from './process-group';
import { processStartIdentity } from './process-identity';
import { RunOutput } from './run-output';

/** How often, and how many times, a sandboxed run's group is looked at again after bwrap exits (its teardown). */
const SANDBOX_TEARDOWN_LOOK_MS = 50;
const SANDBOX_TEARDOWN_LOOKS = 10;
/**
 * Runs shell commands for the `run_shell` tool, durably.
 *
 * - `bash -c <command>`, not `bash -lc`: a login shell re-reads the profile scripts on every command
 *   (slow, may print banners, may `exec` something else, and differs between machines). The host
 *   passes the environment it wants once (`env`), e.g. a login shell's environment captured at
 *   startup, which is what a GUI-launched app on macOS needs to see the user's PATH.
 * - Each command gets its own process group (`detached: true`, i.e. setsid), so a stop, a timeout or
 *   a kill reaches the whole tree: SIGTERM to the group, then SIGKILL after a grace period. When the
 *   shell exits on its own, whatever it left running in its group is stopped the same way. A process
 *   that leaves the group (setsid, a daemon's double fork) is found by the marker in its environment
 *   and stopped with the group (escaped-processes.ts).
 * - stdin is closed (a prompt reads end-of-file, never hangs); git is told not to prompt.
 * - The environment leaves out Cairn's own variables and names that look like secrets, except those
 *   passed through by the host setting (child-environment.ts).
 * - Output: the last `tailBytes` of each stream are kept; live output is decoded and coalesced into
 *   one piece per stream every `flushIntervalMs`. Each piece is handed out only after the tails that
 *   hold it are written to the store (invariant 1): what a client saw live survives a crash.
 * - Durable states through the store: a row is written `starting` before the spawn, `running` with
 *   the pid and its start identity in the same tick as spawn() returns (no event runs between), and
 *   `exited` / `killed` / `timed_out` at the end. A crash leaves it live; startup recovery
 *   (orphan-recovery.ts) marks it `orphaned`, stopping its process group when it is provably still
 *   the same process.
 * - The runner itself is no sandbox: a request's `wrap` (runtime/sandbox) puts the command line
 *   inside one. The wrapper (bwrap) is then the group leader whose pid is recorded, and everything
 *   inside it stays in its group and its PID namespace, so Stop and recovery reach it the same way.
 */

/** The store calls the runner makes (the runtime passes `stores.shellRuns`). */
export type ShellRunRecorder = Pick<ShellRunStore, 'insert' | 'markRunning' | 'recordOutput' | 'finish'>;

export interface ShellRunnerOptions {
  readonly store: ShellRunRecorder;
  readonly clock: Clock;
  readonly newShellRunId: () => string;
  readonly logger?: Logger;
  /** Default `bash` (from PATH). */
  readonly shell?: string;
  /** Where the commands' environment comes from (see child-environment.ts). Default: this process's. */
  readonly env?: NodeJS.ProcessEnv;
  /** Variables kept although their names look like secrets (the host's pass-through setting). */
  readonly passThrough?: readonly string[];
  /** Bytes of each stream kept as its tail. Default 64 KiB. */
  readonly tailBytes?: number;
  /** How often live output is handed out. Default 50 ms. */
  readonly flushIntervalMs?: number;
  /** Between SIGTERM and SIGKILL. Default 2000 ms. */
  readonly killGraceMs?: number;
  /** What makes this host's run markers its own (the data directory; escaped-processes.ts). Default: random. */
  readonly markerScope?: string;
}

export type ShellStream = 'stdout' | 'stderr';

export interface ShellOutputChunk {
  readonly shellRunId: string;
  readonly stream: ShellStream;
  readonly text: string;
}

export interface ShellRunRequest {
  readonly sessionId: string;
  readonly turnId: string;
  readonly runId: string;
  readonly toolCallId: string | null;
  readonly command: string;
  /** A real, existing folder (the workspace root). */
  readonly cwd: string;
  readonly timeoutMs: number;
  /** Wraps the command line (`bash -c <command>`) in a sandbox; without it the command runs as it is. */
  readonly wrap?: (argv: readonly string[]) => readonly string[];
  /** Aborting it kills the run (recorded `killed`), as `kill(shellRunId)` does. */
  readonly signal?: AbortSignal;
  /** Called once the process is running (the record says `running`, with its pid). */
  readonly onStart?: (run: ShellRunRecord) => void;
  /** Live output, coalesced. */
  readonly onOutput?: (chunk: ShellOutputChunk) => void;
}

export interface ShellRunResult {
  readonly shellRunId: string;
  readonly status: 'exited' | 'killed' | 'timed_out';
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly pid: number | null;
  readonly stdoutTail: string;
  readonly stderrTail: string;
  readonly stdoutTruncated: boolean;
  readonly stderrTruncated: boolean;
  readonly failureMessage: string | null;
  readonly durationMs: number;
  /** The shell exited but had left processes running in its group; they were stopped. */
  readonly stoppedLeftovers: boolean;
}

export interface ShellRunner {
  /** Runs a command to its end (exit, kill or timeout). Rejects only if the store refuses the first write. */
  run(request: ShellRunRequest): Promise<ShellRunResult>;
  /** Kills a live run's whole process group (SIGTERM, then SIGKILL); false when it is not live here. */
  kill(shellRunId: string): boolean;
  liveRunIds(): string[];
  /** Kills every live run and waits until each has ended (for host shutdown). */
  killAll(): Promise<void>;
}

const NON_INTERACTIVE_ENV = { GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', PAGER: 'cat' } as const;

interface LiveRun {
  kill(): boolean;
  readonly done: Promise<ShellRunResult>;
}

export function createShellRunner(options: ShellRunnerOptions): ShellRunner {
  const { store, clock } = options;
  const logger = options.logger ?? silentLogger;
  const shell = options.shell ?? 'bash';
  const env = childEnvironment({
    ...(options.env === undefined ? {} : { base: options.env }),
    scrubSecrets: true,
    passThrough: options.passThrough ?? [],
    extra: NON_INTERACTIVE_ENV,
  });
  const live = new Map<string, LiveRun>();

  /** Store writes after the first never throw into process events: a failure is logged (and false). */
  const record = (what: string, write: () => void): boolean => {
    try {
      write();
      return true;
    } catch (error) {
      logger.error('Could not record a shell run change', {
        what,
        error: error instanceof Error ? error.message : String(error),
      });
      return false;
    }
  };
  const setup: RunSetup = {
    store,
    clock,
    logger,
    shell,
    env,
    record,
    tailBytes: options.tailBytes ?? 64 * 1024,
    flushIntervalMs: options.flushIntervalMs ?? 50,
    killGraceMs: options.killGraceMs ?? 2000,
    markerScope: options.markerScope ?? randomUUID(),
  };

  return {
    async run(request) {
      const shellRunId = options.newShellRunId();
      const startedAt = clock.now();
      store.insert({
        shellRunId,
        sessionId: request.sessionId,
        turnId: request.turnId,
        runId: request.runId,
        toolCallId: request.toolCallId,
        command: request.command,
        cwd: request.cwd,
        now: startedAt,
      });
      const run = startRun(setup, request, shellRunId, startedAt);
      live.set(shellRunId, run);
      return run.done.finally(() => live.delete(shellRunId));
    },
    kill(shellRunId) {
      return live.get(shellRunId)?.kill() ?? false;
    },
    liveRunIds() {
      return [...live.keys()];
    },
    async killAll() {
      const runs = [...live.values()];
      for (const run of runs) run.kill();
      await Promise.all(runs.map((run) => run.done));
    },
  };
}

/** What every run of one runner shares. */
interface RunSetup {
  readonly store: ShellRunRecorder;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly shell: string;
  readonly env: NodeJS.ProcessEnv;
  /** Store writes after the first never throw into process events: a failure is logged (and false). */
  readonly record: (what: string, write: () => void) => boolean;
  readonly tailBytes: number;
  readonly flushIntervalMs: number;
  readonly killGraceMs: number;
  readonly markerScope: string;
}

/** Starts one command and follows it to its end: output, Stop, timeout, leftovers, the record. */
function startRun(setup: RunSetup, request: ShellRunRequest, shellRunId: string, startedAt: number): LiveRun {
  const { store, clock, logger, shell, env, record, tailBytes, flushIntervalMs, killGraceMs, markerScope } = setup;
  let kill: () => boolean = () => false;
  const done = new Promise<ShellRunResult>((resolve) => {
    let requested: 'killed' | 'timed_out' | null = null;
    let exit: { code: number | null; signal: string | null } | null = null;
    let spawnError: Error | null = null;
    let stoppedLeftovers = false;
    let finished = false;
    let cancelGrace: (() => void) | null = null;

    const marker = runMarker(markerScope, shellRunId);
    const escaped = () => markedProcesses(marker).length > 0;
    let child: ChildProcess | null = null;
    try {
      const runEnv = { ...env, [RUN_MARKER_VARIABLE]: marker };
      const [file = shell, ...args] = request.wrap?.([shell, '-c', request.command]) ?? [shell, '-c', request.command];
      child = spawn(file, args, { cwd: request.cwd, env: runEnv, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (error) {
      spawnError = error instanceof Error ? error : new Error(String(error));
    }
    const pid = child?.pid ?? null;
    // The pid is known as soon as spawn() returns: record it (and its start identity) now, in this
    // tick. Waiting for the 'spawn' event leaves a window where a crash finds the row `starting`
    // with no pid, and the restarted host cannot find, let alone stop, the live process group.
    let running: ShellRunRecord | null = null;
    if (pid !== null)
      record('running', () => (running = store.markRunning(shellRunId, pid, processStartIdentity(pid))));

    const signalGroup = (signal: NodeJS.Signals) => {
      if (pid === null) return;
      try {
        signalProcessGroup(pid, signal);
      } catch (error) {
        logger.warn('Could not signal a shell process group', {
          pid,
          signal,
          error: error instanceof Error ? error.message : String(error),
        });
      }
      signalMarkedProcesses(marker, signal);
    };
    const terminateGroup = () => {
      signalGroup('SIGTERM');
      cancelGrace ??= clock.setTimeout(() => signalGroup('SIGKILL'), killGraceMs);
    };
    const requestEnd = (reason: 'killed' | 'timed_out'): boolean => {
      if (finished || requested !== null) return false;
      requested = reason;
      terminateGroup();
      return true;
    };

    const output = new RunOutput({
      tailBytes,
      flushIntervalMs,
      clock,
      save: (tails) => record('output', () => store.recordOutput(shellRunId, tails)),
      hand: (stream, text) => {
        try {
          request.onOutput?.({ shellRunId, stream, text });
        } catch (error) {
          logger.warn('A shell output listener failed', {
            error: error instanceof Error ? error.message : String(error),
          });
        }
      },
    });
    child?.stdout?.on('data', (chunk: Buffer) => output.push('stdout', chunk));
    child?.stderr?.on('data', (chunk: Buffer) => output.push('stderr', chunk));

    const cancelTimeout = clock.setTimeout(() => requestEnd('timed_out'), request.timeoutMs);
    const onAbort = () => requestEnd('killed');
    request.signal?.addEventListener('abort', onAbort, { once: true });

    const finish = () => {
      if (finished) return;
      finished = true;
      cancelTimeout();
      request.signal?.removeEventListener('abort', onAbort);
      output.end();
      // Keep the SIGKILL escalation only while something of the group is still there.
      if (cancelGrace !== null && (pid === null || (processGroupGone(pid) && !escaped()))) cancelGrace();
      const status: ShellRunResult['status'] = requested ?? 'exited';
      const failureMessage = failureMessageOf(
        status,
        spawnError === null ? null : `Could not start ${shell}: ${spawnError.message}`,
        request.timeoutMs,
      );
      const ending = {
        status,
        exitCode: exit?.code ?? null,
        signal: exit?.signal ?? null,
        failureMessage,
        ...output.tailsNow(),
      };
      const now = clock.now();
      record('finish', () => store.finish(shellRunId, { ...ending, now }));
      resolve({ shellRunId, pid, ...ending, durationMs: now - startedAt, stoppedLeftovers });
    };

    kill = () => requestEnd('killed');
    if (child === null) return finish();
    child.once('spawn', () => {
      if (running === null) return;
      try {
        request.onStart?.(running);
      } catch (error) {
        logger.warn('A shell start listener failed', { error: error instanceof Error ? error.message : String(error) });
      }
    });
    child.once('error', (error) => {
      // Only a failed spawn ends the run here; a failed kill is not the run's end.
      if (pid !== null) return logger.warn('A shell process reported an error', { error: error.message });
      spawnError = error;
      finish();
    });
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      // The shell is gone; anything it left, in its group or escaped from it, would hold the pipes (and the tool) open.
      const left = () => pid !== null && (!processGroupGone(pid) || escaped());
      if (requested !== null || !left()) return;
      if (request.wrap === undefined) {
        stoppedLeftovers = true;
        terminateGroup();
        return;
      }
      // A sandbox's PID namespace is torn down by the kernel once its init exits: what is still seen at
      // bwrap's exit may be that teardown, not something the command left. Look again shortly after.
      let looks = 0;
      const lookAgain = () => {
        looks += 1;
        if (!left()) return;
        if (looks < SANDBOX_TEARDOWN_LOOKS) {
          clock.setTimeout(lookAgain, SANDBOX_TEARDOWN_LOOK_MS);
          return;
        }
        stoppedLeftovers = true;
        terminateGroup();
      };
      clock.setTimeout(lookAgain, SANDBOX_TEARDOWN_LOOK_MS);
    });
    child.once('close', () => {
      if (exit !== null || spawnError !== null) finish();
    });
    if (request.signal?.aborted) requestEnd('killed');
  });
  return { kill: () => kill(), done };
}

/** What the record says of a run that did not simply exit: it could not start, timed out or was stopped. */
function failureMessageOf(
  status: ShellRunResult['status'],
  startFailure: string | null,
  timeoutMs: number,
): string | null {
  if (startFailure !== null) return startFailure;
  if (status === 'timed_out')
    return `Timed out after ${Math.round(timeoutMs / 100) / 10} s; its process group was stopped.`;
  return status === 'killed' ? 'Stopped before it finished; its process group was killed.' : null;
}
