import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface ServeProcess {
  readonly child: ChildProcess;
  readonly url: string;
  readonly port: number;
  readonly wsUrl: string;
  output(): string;
  /** Resolves with the exit code (or signal name) once the process has exited. */
  readonly exited: Promise<number | string>;
}

export interface ServeOptions {
  readonly dataDir: string;
  readonly token: string;
  readonly port?: number;
  readonly env?: Record<string, string>;
}

/** Starts `src-main/serve.ts` as a child process (the real headless host) and waits for its URL. */
export async function startServeProcess(options: ServeOptions): Promise<ServeProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src-main/serve.ts', `--data-dir=${options.dataDir}`, `--port=${options.port ?? 0}`, `--token=${options.token}`],
    { cwd: PROJECT_ROOT, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const exited = new Promise<number | string>((resolveExit) =>
    child.once('exit', (code, signal) => resolveExit(code ?? signal ?? 'unknown')),
  );
  const url = await new Promise<string>((resolveUrl, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Open (http:\/\/127\.0\.0\.1:\d+\/#token=\S+)/.exec(output);
      if (match?.[1] !== undefined) resolveUrl(match[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => reject(new Error(`serve exited (${code}) before it was ready:\n${output}`)));
  });
  const port = Number(new URL(url).port);
  return { child, url, port, wsUrl: `ws://127.0.0.1:${port}/`, output: () => output, exited };
}
