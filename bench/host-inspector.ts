import { createWriteStream } from 'node:fs';
import WebSocket from 'ws';

/** NODE_OPTIONS for the host: its inspector on a free loopback port, for `openHostInspector`. */
export const INSPECTOR_OPTION = '--inspect=127.0.0.1:0';

/** A connection to the host's inspector (the Chrome DevTools Protocol over a WebSocket). */
export interface HostInspector {
  send(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Calls `listener` with the params of every event named `method` until the returned function is called. */
  on(method: string, listener: (params: Record<string, unknown>) => void): () => void;
  close(): void;
}

/**
 * Connects to the inspector whose address the host printed (`Debugger listening on ws://…`, from
 * INSPECTOR_OPTION); null when it printed none or does not answer.
 */
export async function openHostInspector(output: () => string): Promise<HostInspector | null> {
  const address = /Debugger listening on (ws:\/\/\S+)/.exec(output())?.[1];
  if (address === undefined) return null;
  const socket = new WebSocket(address, { maxPayload: 1024 * 1024 * 1024 });
  try {
    await new Promise((opened, failed) => {
      socket.once('open', opened);
      socket.once('error', failed);
    });
  } catch {
    socket.close();
    return null;
  }
  let next = 0;
  const listen = (handle: (message: Record<string, unknown>) => void) => {
    const onMessage = (data: WebSocket.RawData) => handle(JSON.parse(String(data)) as Record<string, unknown>);
    socket.on('message', onMessage);
    return () => void socket.off('message', onMessage);
  };
  return {
    send: (method, params = {}) =>
      new Promise((answered, failed) => {
        const id = (next += 1);
        const stop = listen((message) => {
          if (message.id !== id) return;
          stop();
          const result = message.result as Record<string, unknown> | undefined;
          if (result === undefined) failed(new Error(`${method}: ${JSON.stringify(message.error)}`));
          else answered(result);
        });
        socket.send(JSON.stringify({ id, method, params }));
      }),
    on: (method, listener) =>
      listen((message) => {
        if (message.method === method) listener((message.params ?? {}) as Record<string, unknown>);
      }),
    close: () => socket.close(),
  };
}

/**
 * A heap snapshot of the host written to `path` (after the full collection taking one does), streamed
 * in the chunks the inspector sends so the host's heap is never one string in this process.
 */
export async function writeHostHeapSnapshot(inspector: HostInspector, path: string): Promise<void> {
  const file = createWriteStream(path);
  const stop = inspector.on('HeapProfiler.addHeapSnapshotChunk', (params) => file.write(String(params.chunk)));
  try {
    await inspector.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  } finally {
    stop();
    await new Promise<void>((closed, failed) => file.end((error?: Error | null) => (error ? failed(error) : closed())));
  }
}
