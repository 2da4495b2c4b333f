import { spawn, type ChildProcess, type Serializable } from 'node:child_process';
import { setPriority } from 'node:os';
import { Worker } from 'node:worker_threads';
import { childEnvironment } from '../shell/child-environment';

/*
 * Where the shadow repository's git runs. Starting a process from Node's main thread blocks its event
 * loop for the whole start: on Linux libuv forks the host (copying the page tables of a process of
 * 150 MB or more) and then waits until the child has exec'd, which on a loaded machine can be many
 * milliseconds while the child waits for a core. A checkpoint is several git calls, so a busy host
 * spent a third of its time there (issue 46). `GitHelper` has git started by a small Node process of
 * its own (the host forks once, to start it; each git is then a fork of the small process), or by a
 * worker thread, whose forks are still of the whole host (copying its page tables, stalling its page
 * faults meanwhile) but no longer block its event loop. `npm run bench git-loop` measures all three:
 * the helper process is the one close to no git at all. `runGitHere` runs git from the calling
 * thread: ShadowRepo's default, and what is left where no helper can be had.
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
 * or (through a `GitHelper` only) the helper stopped while git ran, so how it ended is unknown.
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
 * The helper's code, the same as a process and as a worker thread: `runGitHere` in plain JavaScript,
 * inline (no file of its own in out/, in the headless host and in Electron alike). It says it is ready
 * first, then answers each call with its id. A thread's output is copied into a buffer of its own and
 * transferred; a process's is sent over its IPC channel (advanced serialisation). A throw from `spawn`
 * (an argument it refuses) is sent back as such, to be thrown in the caller. A helper process is named
 * `cairn git helper` in process listings and ends with its channel (its host gone, even killed).
 */
export const GIT_HELPER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { spawn } = require('node:child_process');
const { setPriority } = require('node:os');
const port = parentPort || {
  on: (event, listener) => process.on(event, listener),
  postMessage: (message) => process.send(message),
};
if (!parentPort) {
  process.title = 'cairn git helper';
  process.on('disconnect', () => process.exit(0));
}
const joined = (chunks) => {
  const all = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) { all.set(chunk, at); at += chunk.length; }
  return all;
};
port.on('message', ({ id, call }) => {
  let settled = false;
  const settle = (reply, transfer) => {
    if (settled) return;
    settled = true;
    port.postMessage({ id, ...reply }, transfer);
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
port.postMessage({ ready: true });
`;

type HelperMessage = { readonly ready: true } | HelperReply;

type HelperReply = { readonly id: number } & (
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

/** A helper process or thread, as `GitHelper` talks to it. */
interface Channel {
  post(message: unknown): void;
  /** Whether it keeps this process alive. */
  hold(held: boolean): void;
  end(): Promise<void>;
}

/** One helper and the calls posted to it. */
interface Helper {
  readonly channel: Channel;
  /** Whether it is listening (it says so first): until then, nothing posted to it has been started. */
  online: boolean;
  readonly pending: Map<number, Pending>;
  /** Resolved when it has answered every call posted to it, or stopped. */
  idle: Promise<void>;
  becameIdle: () => void;
}

/** After this many helpers in a row stopped without answering a call, git runs from this thread. */
const STOPS_BEFORE_GIVING_UP = 3;

/**
 * Runs git through a helper (`'process'`: a small Node process; `'thread'`: a worker thread), started
 * at the first call. Calls run concurrently, as they would from this thread (a repository's own calls
 * are serialised by ShadowRepo). The helper keeps this process alive only while a call is under way.
 * If it stops (it should not), a call it never started (it never came up) runs again; a call it was
 * running is answered as `unanswered` (git may or may not have finished: whoever asked treats it as a
 * failed call); the next call starts a new helper. After `STOPS_BEFORE_GIVING_UP` stops in a row, git
 * runs from this thread.
 */
export class GitHelper {
  private helper: Helper | null = null;
  private nextId = 0;
  private stopsInARow = 0;

  /** `source`: the helper's code (a test's may end it). */
  constructor(
    private readonly kind: 'process' | 'thread' = 'process',
    private readonly source = GIT_HELPER_SOURCE,
  ) {}

  /** Runs `call` (bound: `helper.run` is a GitRunner). */
  readonly run: GitRunner = (call) => {
    if (this.stopsInARow >= STOPS_BEFORE_GIVING_UP) return runGitHere(call);
    const helper = this.helper ?? this.start();
    return new Promise<GitOutcome>((resolve, reject) => {
      const id = (this.nextId += 1);
      if (helper.pending.size === 0) {
        helper.idle = new Promise((idle) => (helper.becameIdle = idle));
        helper.channel.hold(true);
      }
      helper.pending.set(id, { call, resolve, reject });
      helper.channel.post({ id, call });
    });
  };

  /** Ends the helper once the calls under way are answered (a later call starts a new one). */
  async close(): Promise<void> {
    const helper = this.helper;
    if (helper === null) return;
    this.helper = null;
    await helper.idle;
    await helper.channel.end();
  }

  private start(): Helper {
    // Its events come later than this function's end, when `helper` is there.
    const events: ChannelEvents = {
      message: (message) => {
        if ('ready' in message) helper.online = true;
        else this.answer(helper, message);
      },
      exit: () => this.stopped(helper),
    };
    const helper: Helper = {
      channel: this.kind === 'thread' ? threadChannel(this.source, events) : processChannel(this.source, events),
      online: false,
      pending: new Map(),
      idle: Promise.resolve(),
      becameIdle: () => undefined,
    };
    this.helper = helper;
    return helper;
  }

  private answer(helper: Helper, reply: HelperReply): void {
    const pending = helper.pending.get(reply.id);
    if (pending === undefined) return;
    helper.pending.delete(reply.id);
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
    if (helper.pending.size === 0) {
      helper.channel.hold(false);
      helper.becameIdle();
    }
  }

  /** The helper ended: by `close` (nothing is pending then), or on its own. */
  private stopped(helper: Helper): void {
    if (this.helper === helper) this.helper = null;
    if (helper.pending.size === 0) return;
    this.stopsInARow += 1;
    const lost = [...helper.pending.values()];
    helper.pending.clear();
    helper.becameIdle();
    for (const { call, resolve, reject } of lost) {
      if (!helper.online) this.run(call).then(resolve, reject);
      else
        resolve({
          kind: 'unanswered',
          message: 'the helper running git stopped before git answered; it may or may not have finished',
        });
    }
  }
}

interface ChannelEvents {
  message(message: HelperMessage): void;
  exit(): void;
}

/** A worker thread. Every message from it is handled before its exit is. */
function threadChannel(source: string, events: ChannelEvents): Channel {
  const worker = new Worker(source, { eval: true });
  worker.unref();
  worker.on('message', events.message);
  worker.on('error', () => undefined);
  worker.once('exit', events.exit);
  return {
    post: (message) => worker.postMessage(message),
    hold: (held) => (held ? worker.ref() : worker.unref()),
    end: async () => {
      // Held while it ends: an unreferenced thread's end would not keep this process alive to be seen.
      worker.ref();
      await worker.terminate();
    },
  };
}

/**
 * A Node process: this one's own executable (Electron's runs as Node with ELECTRON_RUN_AS_NODE), with
 * nothing of this process's environment (no NODE_OPTIONS, no inspector) nor its output. Its exit is
 * handled once its channel has closed too ('close'), so every message it sent is handled first.
 */
function processChannel(source: string, events: ChannelEvents): Channel {
  const child: ChildProcess = spawn(process.execPath, ['-e', source], {
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    serialization: 'advanced',
    env: { ...childEnvironment({ scrubSecrets: true, only: ['SystemRoot'] }), ELECTRON_RUN_AS_NODE: '1' },
  });
  const hold = (held: boolean) => {
    if (held) {
      child.ref();
      child.channel?.ref();
    } else {
      child.unref();
      child.channel?.unref();
    }
  };
  hold(false);
  child.on('message', events.message);
  const exited = new Promise<void>((resolve) => {
    child.once('close', () => resolve());
    // Not started at all (no process to close).
    child.on('error', () => (child.pid === undefined ? resolve() : undefined));
  });
  void exited.then(events.exit);
  return {
    post: (message) => {
      if (child.connected) child.send(message as Serializable, (error) => (error === null ? undefined : child.kill()));
    },
    hold,
    end: async () => {
      // Held while it ends: an unreferenced child's exit would not keep this process alive to be seen.
      hold(true);
      child.kill();
      await exited;
    },
  };
}

/** A transferred Uint8Array as a Buffer over the same memory. */
function bufferOf(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
