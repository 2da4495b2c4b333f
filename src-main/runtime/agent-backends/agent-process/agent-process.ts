import { spawn, type ChildProcess } from 'node:child_process';
import { processGroupGone, signalProcessGroup } from '../../shell/process-group';

export interface AgentLaunch {
  readonly binary: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
}

const STDERR_TAIL_CHARS = 4000;

/**
 * One native agent child (e.g. `codex app-server`) in its own process group. It hands out stdout lines, keeps a tail of
 * stderr for failure messages, and can be ended group-wide with a bounded wait.
 */
export class AgentProcess {
  private readonly child: ChildProcess;
  private stderr = '';
  private buffered = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private exitInfo: { code: number | null; signal: NodeJS.Signals | null } | null = null;

  constructor(launch: AgentLaunch, onLine: (line: string) => void) {
    this.child = spawn(launch.binary, [...launch.args], {
      cwd: launch.cwd,
      env: { ...launch.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        resolve(this.exitInfo);
      });
      this.child.once('error', (error) => {
        this.stderr += `\n${error.message}`;
        this.exitInfo ??= { code: null, signal: null };
        resolve(this.exitInfo);
      });
    });
    this.child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      this.buffered += chunk;
      let newline = this.buffered.indexOf('\n');
      while (newline >= 0) {
        const line = this.buffered.slice(0, newline).trim();
        this.buffered = this.buffered.slice(newline + 1);
        if (line !== '') onLine(line);
        newline = this.buffered.indexOf('\n');
      }
    });
    this.child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-STDERR_TAIL_CHARS);
    });
    this.child.stdin?.on('error', () => {});
  }

  get pid(): number | null {
    return this.child.pid ?? null;
  }

  get hasExited(): boolean {
    return this.exitInfo !== null;
  }

  /** The last lines the agent wrote to stderr, for a person reading why it stopped. */
  stderrTail(lines = 12): string {
    return this.stderr.trimEnd().split('\n').slice(-lines).join('\n');
  }

  send(line: string): boolean {
    const stdin = this.child.stdin;
    if (stdin === null || stdin.destroyed || this.hasExited) return false;
    stdin.write(`${line}\n`);
    return true;
  }

  /**
   * Ends the whole process group: SIGTERM, then SIGKILL after `graceMs`, then waits up to `confirmMs`.
   * True when the group is confirmed gone.
   */
  async terminate(graceMs: number, confirmMs: number): Promise<boolean> {
    const pid = this.child.pid;
    if (pid === undefined) return true;
    this.child.stdin?.end();
    if (!processGroupGone(pid)) signalProcessGroup(pid, 'SIGTERM');
    if (await waitUntil(() => processGroupGone(pid), graceMs)) return true;
    signalProcessGroup(pid, 'SIGKILL');
    return waitUntil(() => processGroupGone(pid), confirmMs);
  }

  /** Whether the group is gone now. */
  isGone(): boolean {
    const pid = this.child.pid;
    return pid === undefined || processGroupGone(pid);
  }
}

export async function waitUntil(condition: () => boolean, boundMs: number): Promise<boolean> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    if (condition()) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
