import { spawn } from 'node:child_process';
import { childEnvironment } from '../shell/child-environment';
import { RUN_MARKER_VARIABLE, signalMarkedProcesses } from '../shell/escaped-processes';
import { signalProcessGroup } from '../shell/process-group';

/** What one hook command did: its exit code (null when it was killed or never started), and its output. */
export interface HookProcessResult {
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Set when it did not end by itself: it ran past its timeout, was stopped, or could not start. */
  readonly failure: 'timeout' | 'stopped' | 'spawn_failed' | null;
  readonly durationMs: number;
}

export interface HookProcessRequest {
  readonly command: string;
  /** The event's JSON, written to the command's stdin. */
  readonly input: string;
  readonly cwd: string;
  /** Variables the hook is given on top of the person's environment (CLAUDE_PROJECT_DIR, …). */
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /**
   * This run's marker (leftover-hooks.ts), inherited by all it starts: Stop and a timeout end what left
   * its process group by it, and the next host finds what a dead host left running.
   */
  readonly marker: string;
}

/** Output kept from each stream; the rest is dropped (a hook's message is for a person and a model). */
const MAX_OUTPUT = 64 * 1024;

/**
 * Runs one hook command as Claude Code does: `sh -c <command>` in the workspace with the event's JSON
 * on stdin, the person's own environment (a hook is the person's code, run with their rights and
 * outside the sandbox; Cairn's own `CAIRN_*` variables are never passed), in a process group of its
 * own so a timeout or Stop ends everything it started (SIGTERM, then SIGKILL after a second), what
 * left the group (setsid) found by its marker.
 */
export function runHookProcess(request: HookProcessRequest): Promise<HookProcessResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let failure: HookProcessResult['failure'] = null;
    let settled = false;
    const finish = (exitCode: number | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      resolve({ exitCode, stdout, stderr, failure, durationMs: Date.now() - started });
    };
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn('/bin/sh', ['-c', request.command], {
        cwd: request.cwd,
        env: childEnvironment({
          scrubSecrets: false,
          extra: { ...request.env, [RUN_MARKER_VARIABLE]: request.marker },
        }),
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
    } catch (error) {
      failure = 'spawn_failed';
      stderr = error instanceof Error ? error.message : String(error);
      resolve({ exitCode: null, stdout, stderr, failure, durationMs: 0 });
      return;
    }
    const end = (why: 'timeout' | 'stopped') => {
      if (settled || failure !== null) return;
      failure = why;
      const pid = child.pid;
      if (pid === undefined) return;
      signalProcessGroup(pid, 'SIGTERM');
      signalMarkedProcesses(request.marker, 'SIGTERM');
      setTimeout(() => {
        signalProcessGroup(pid, 'SIGKILL');
        signalMarkedProcesses(request.marker, 'SIGKILL');
        finish(null);
      }, 1000).unref();
    };
    const onAbort = () => end('stopped');
    const timer = setTimeout(() => end('timeout'), request.timeoutMs);
    request.signal?.addEventListener('abort', onAbort, { once: true });
    if (request.signal?.aborted === true) end('stopped');
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      if (stdout.length < MAX_OUTPUT) stdout += chunk.slice(0, MAX_OUTPUT - stdout.length);
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < MAX_OUTPUT) stderr += chunk.slice(0, MAX_OUTPUT - stderr.length);
    });
    // A hook that does not read its stdin closes the pipe early: that is not an error.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(request.input);
    child.on('error', (error) => {
      failure ??= 'spawn_failed';
      stderr += error.message;
      finish(null);
    });
    child.on('close', (code) => {
      if (failure !== null && child.pid !== undefined) signalProcessGroup(child.pid, 'SIGKILL');
      finish(failure === null ? code : null);
    });
  });
}
