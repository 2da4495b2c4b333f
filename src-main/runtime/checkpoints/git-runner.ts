import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { Worker } from 'node:worker_threads';

/*
 * Where the shadow repository's git runs. Starting a process from Node's main thread blocks its event
 * loop for the whole start: on Linux libuv forks the host (copying the page tables of a process of
 * 150 MB or more) and then waits until the child has exec'd, which on a loaded machine can be many
 * milliseconds while the child waits for a core. A checkpoint is several git calls, so a busy host
 * spent a third of its time there (issue 46). `GitThread` starts git from a worker thread instead:
 * the main thread only posts the call and receives the outcome (a worker's process start blocks only
 * that thread). `runGitHere` is the same in the calling thread: ShadowRepo's default, and where a
 * worker thread cannot be had.
 */

/** One run of git: everything the caller decided (arguments, folder, environment, input, priority). */
export interface GitCall {
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly input?: string | Buffer;
  /** At the lowest CPU priority. */
  readonly background?: boolean;
}

/**
 * How a run of git ended: it exited (a null code when a signal ended it), it could not be run at all,
 * or (from a worker thread only) the thread stopped while git ran, so how it ended is unknown.
 */
export type GitOutcome =
  | { readonly kind: 'exited'; readonly code: number | null; readonly stdout: Buffer; readonly stderr: Buffer }
  | { readonly kind: 'not-run'; readonly message: string }
  | { readonly kind: 'unanswered'; readonly message: string };

export type GitRunner = (call: GitCall) => Promise<GitOutcome>;

/** Runs git from this thread. */
export const runGitHere: GitRunner = (call) =>
  new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: GitOutcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    const child = spawn('git', call.args, { cwd: call.cwd, env: call.env, stdio: ['pipe', 'pipe', 'pipe'] });
    if (call.background === true && child.pid !== undefined) {
      try {
        setPriority(child.pid, 19);
      } catch {
        // Only a nicety: a git that keeps its priority still does its work.
      }
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) => settle({ kind: 'not-run', message: error.message }));
    child.on('close', (code) =>
      settle({ kind: 'exited', code, stdout: Buffer.concat(out), stderr: Buffer.concat(err) }),
    );
    child.stdin.on('error', () => undefined);
    child.stdin.end(call.input ?? '');
  });

/**
 * The worker thread: `runGitHere` in plain JavaScript (an inline worker needs no file of its own in
 * out/, in the headless host and in Electron alike). Each outcome's output is copied into a buffer of
 * its own and transferred, not cloned. A throw from `spawn` (an argument it refuses) is sent back as
 * such, to be thrown in the caller.
 */
export const GIT_WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { spawn } = require('node:child_process');
const { setPriority } = require('node:os');
const joined = (chunks) => {
  const all = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) { all.set(chunk, at); at += chunk.length; }
  return all;
};
parentPort.on('message', ({ id, call }) => {
  let settled = false;
  const settle = (reply, transfer) => {
    if (settled) return;
    settled = true;
    parentPort.postMessage({ id, ...reply }, transfer);
  };
  let child;
  try {
    child = spawn('git', call.args, { cwd: call.cwd, env: call.env, stdio: ['pipe', 'pipe', 'pipe'] });
  } catch (error) {
    settle({ thrown: { name: error && error.name, message: error instanceof Error ? error.message : String(error) } });
    return;
  }
  if (call.background === true && child.pid !== undefined) {
    try { setPriority(child.pid, 19); } catch {}
  }
  const out = [];
  const err = [];
  child.stdout.on('data', (chunk) => out.push(chunk));
  child.stderr.on('data', (chunk) => err.push(chunk));
  child.on('error', (error) => settle({ outcome: { kind: 'not-run', message: error.message } }));
  child.on('close', (code) => {
    const stdout = joined(out);
    const stderr = joined(err);
    settle({ outcome: { kind: 'exited', code, stdout, stderr } }, [stdout.buffer, stderr.buffer]);
  });
  child.stdin.on('error', () => {});
  child.stdin.end(call.input === undefined ? '' : call.input);
});
parentPort.postMessage({ ready: true });
`;

type WorkerMessage = { readonly ready: true } | WorkerReply;

type WorkerReply = { readonly id: number } & (
  | {
      readonly outcome:
        | {
            readonly kind: 'exited';
            readonly code: number | null;
            readonly stdout: Uint8Array;
            readonly stderr: Uint8Array;
          }
        | { readonly kind: 'not-run'; readonly message: string };
    }
  | { readonly thrown: { readonly name: unknown; readonly message: string } }
);

interface Pending {
  readonly call: GitCall;
  readonly resolve: (outcome: GitOutcome) => void;
  readonly reject: (error: Error) => void;
}

/** One worker thread and the calls posted to it. */
interface Thread {
  readonly worker: Worker;
  /** Whether it is listening (it says so first): until then, nothing posted to it has been started. */
  online: boolean;
  readonly pending: Map<number, Pending>;
  /** Resolved when it has answered every call posted to it or stopped. */
  idle: Promise<void>;
  becameIdle: () => void;
}

/** After this many threads in a row stopped without answering a call, git runs in this thread. */
const STOPS_BEFORE_GIVING_UP = 3;

/**
 * Runs git from a worker thread of its own, started at the first call. Calls run concurrently, as
 * they would from this thread (a repository's own calls are serialised by ShadowRepo). The thread
 * keeps the process alive only while a call is under way. If it stops (it should not), a call it
 * never started (the thread never came up) runs again; a call it was running is answered as
 * `unanswered` (git may or may not have finished: whoever asked treats it as failed); the next call
 * starts a new thread. After `STOPS_BEFORE_GIVING_UP` stops in a row, git runs in this thread.
 */
export class GitThread {
  private thread: Thread | null = null;
  private nextId = 0;
  private stopsInARow = 0;

  /** `source`: the thread's code (a test's may end it). */
  constructor(private readonly source = GIT_WORKER_SOURCE) {}

  /** Runs `call` (bound: `thread.run` is a GitRunner). */
  readonly run: GitRunner = (call) => {
    if (this.stopsInARow >= STOPS_BEFORE_GIVING_UP) return runGitHere(call);
    const thread = this.thread ?? this.start();
    return new Promise<GitOutcome>((resolve, reject) => {
      const id = (this.nextId += 1);
      if (thread.pending.size === 0) {
        thread.idle = new Promise((idle) => (thread.becameIdle = idle));
        thread.worker.ref();
      }
      thread.pending.set(id, { call, resolve, reject });
      thread.worker.postMessage({ id, call });
    });
  };

  /**
   * Ends the thread once the calls under way are answered (a call made meanwhile starts a new one,
   * as does any later call).
   */
  async close(): Promise<void> {
    const thread = this.thread;
    if (thread === null) return;
    this.thread = null;
    await thread.idle;
    await thread.worker.terminate();
  }

  private start(): Thread {
    const worker = new Worker(this.source, { eval: true });
    worker.unref();
    const thread: Thread = {
      worker,
      online: false,
      pending: new Map(),
      idle: Promise.resolve(),
      becameIdle: () => undefined,
    };
    this.thread = thread;
    worker.on('message', (message: WorkerMessage) => {
      if ('ready' in message) thread.online = true;
      else this.answer(thread, message);
    });
    worker.on('error', () => undefined);
    worker.once('exit', () => this.stopped(thread));
    return thread;
  }

  private answer(thread: Thread, reply: WorkerReply): void {
    const pending = thread.pending.get(reply.id);
    if (pending === undefined) return;
    thread.pending.delete(reply.id);
    this.stopsInARow = 0;
    if ('thrown' in reply) {
      const { name, message } = reply.thrown;
      pending.reject(name === 'TypeError' ? new TypeError(message) : new Error(message));
    } else {
      const { outcome } = reply;
      pending.resolve(
        outcome.kind === 'not-run'
          ? outcome
          : { kind: 'exited', code: outcome.code, stdout: bufferOf(outcome.stdout), stderr: bufferOf(outcome.stderr) },
      );
    }
    if (thread.pending.size === 0) {
      thread.worker.unref();
      thread.becameIdle();
    }
  }

  /** The thread ended: by `close` (nothing is pending then), or on its own. */
  private stopped(thread: Thread): void {
    if (this.thread === thread) this.thread = null;
    if (thread.pending.size === 0) return;
    this.stopsInARow += 1;
    const lost = [...thread.pending.values()];
    thread.pending.clear();
    thread.becameIdle();
    for (const { call, resolve, reject } of lost) {
      if (!thread.online) this.run(call).then(resolve, reject);
      else
        resolve({
          kind: 'unanswered',
          message: 'the thread running git stopped before git answered; it may or may not have finished',
        });
    }
  }
}

/** A transferred Uint8Array as a Buffer over the same memory. */
function bufferOf(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
