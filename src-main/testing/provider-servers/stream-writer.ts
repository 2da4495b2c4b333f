import type { ServerResponse } from 'node:http';
import type { ScriptedEnding } from './scripted-reply';

/** The endings a writer carries out itself; an in-stream error is the dialect's to write. */
export type WriterEnding = Exclude<ScriptedEnding, { readonly error: unknown }>;

/**
 * Writes one streamed HTTP answer: Server-Sent Events (OpenAI, Anthropic) or newline-delimited JSON
 * (Ollama). Every event is its own write, so the client sees the chunks the way a provider sends them.
 */
export interface StreamWriter {
  /** Sends the status line and headers. */
  start(contentType: 'text/event-stream' | 'application/x-ndjson'): void;
  /** One SSE event: an optional `event:` line and a `data:` line (JSON unless a string). */
  sse(data: unknown, event?: string): void;
  /** One NDJSON line. */
  ndjson(value: unknown): void;
  /**
   * Ends the answer the scripted way. `finish` writes `endMarker` (e.g. `data: [DONE]`) and closes;
   * `hang` resolves once the client has gone away; `drop` destroys the socket mid-stream.
   */
  end(ending: WriterEnding, endMarker?: () => void): Promise<void>;
}

/** `onDrop` is told before the socket is destroyed on purpose, so the request is not recorded as closed by the client. */
export function createStreamWriter(res: ServerResponse, clientGone: Promise<void>, onDrop: () => void): StreamWriter {
  let flushed: Promise<void> = Promise.resolve();
  const write = (text: string) => {
    flushed = new Promise((resolve) => res.write(text, () => resolve()));
  };
  return {
    start(contentType) {
      res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-cache', connection: 'keep-alive' });
      res.flushHeaders();
    },
    sse(data, event) {
      const payload = typeof data === 'string' ? data : JSON.stringify(data);
      write(`${event === undefined ? '' : `event: ${event}\n`}data: ${payload}\n\n`);
    },
    ndjson(value) {
      write(`${JSON.stringify(value)}\n`);
    },
    async end(ending, endMarker) {
      switch (ending) {
        case 'finish':
          endMarker?.();
          res.end();
          return;
        case 'hang':
          await clientGone;
          return;
        case 'drop':
          // What was written reaches the client first; then the connection breaks.
          await flushed;
          onDrop();
          res.socket?.destroy();
          return;
      }
    },
  };
}
