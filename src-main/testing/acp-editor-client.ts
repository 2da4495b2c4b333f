import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import {
  client,
  ndJsonStream,
  type ClientConnection,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
} from '@agentclientprotocol/sdk';

const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The command editors run: `node <checkout>/bin/cairn.mjs acp`. */
export const CAIRN_BIN = join(PROJECT_ROOT, 'bin', 'cairn.mjs');

/** How a test answers `session/request_permission`: given the request and the signal a withdrawal aborts. */
export type PermissionAnswerer = (
  request: RequestPermissionRequest,
  signal: AbortSignal,
) => Promise<RequestPermissionResponse> | RequestPermissionResponse;

/** An editor stand-in: the ACP SDK's client, driving `cairn acp` as a child process over stdio. */
export interface AcpEditor {
  readonly child: ChildProcessWithoutNullStreams;
  readonly connection: ClientConnection;
  /** Every `session/update` received, in order. */
  readonly updates: SessionNotification[];
  /** Everything `cairn acp` wrote to stderr (its log); stdout is the protocol's. */
  stderr(): string;
  /** Bytes on stdout that were not a JSON-RPC message (must stay empty). */
  strayOutput(): string;
  answerPermissions(answerer: PermissionAnswerer): void;
  readonly exited: Promise<number | string>;
}

export function startAcpEditor(options: {
  readonly dataDir: string;
  /** The folder the editor starts the agent in (its project). */
  readonly cwd: string;
  readonly env?: Record<string, string>;
}): AcpEditor {
  const child = spawn(process.execPath, [CAIRN_BIN, 'acp', '--data-dir', options.dataDir], {
    cwd: options.cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, CAIRN_SANDBOX: 'off', CAIRN_MODEL_TITLES: 'off', ...options.env },
  });
  let stderr = '';
  let stray = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | string>((resolveExit) =>
    child.once('exit', (code, signal) => resolveExit(code ?? signal ?? 'unknown')),
  );
  // Watch stdout for anything that is not one JSON-RPC message a line, beside the SDK reading it.
  const [forSdk, forCheck] = (Readable.toWeb(child.stdout) as unknown as ReadableStream<Uint8Array>).tee();
  void (async () => {
    const decoder = new TextDecoder();
    let pending = '';
    for await (const chunk of forCheck as unknown as AsyncIterable<Uint8Array>) {
      pending += decoder.decode(chunk, { stream: true });
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (!isJsonRpc(line)) stray += `${line}\n`;
    }
  })();
  const updates: SessionNotification[] = [];
  let answerer: PermissionAnswerer = () => ({ outcome: { outcome: 'cancelled' } });
  const connection = client({ name: 'test-editor' })
    .onNotification('session/update', ({ params }) => {
      updates.push(params);
    })
    .onRequest('session/request_permission', ({ params, signal }) => answerer(params, signal))
    .connect(ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, forSdk));
  return {
    child,
    connection,
    updates,
    stderr: () => stderr,
    strayOutput: () => stray,
    answerPermissions: (next) => (answerer = next),
    exited,
  };
}

function isJsonRpc(line: string): boolean {
  try {
    const message = JSON.parse(line) as { jsonrpc?: unknown };
    return message.jsonrpc === '2.0';
  } catch {
    return false;
  }
}

/** The text of the agent's message chunks among `updates`, joined. */
export function agentText(updates: readonly SessionNotification[], kind = 'agent_message_chunk'): string {
  return updates
    .map(({ update }) => {
      if (update.sessionUpdate !== kind || !('content' in update)) return '';
      const content = update.content;
      return content !== null && content !== undefined && !Array.isArray(content) && content.type === 'text'
        ? content.text
        : '';
    })
    .join('');
}
