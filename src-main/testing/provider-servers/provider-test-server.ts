import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ScriptedError, ScriptedReply, ScriptedStream } from './scripted-reply';
import { createStreamWriter, type StreamWriter } from './stream-writer';

export type RequestOutcome = 'completed' | 'client_closed' | 'dropped';

/** One HTTP request the server received, as tests read it. */
export interface RecordedRequest {
  readonly method: string;
  /** Path and query, e.g. `/v1/chat/completions`. */
  readonly path: string;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed JSON body; null when the body is empty or not JSON. */
  readonly body: unknown;
  readonly receivedAt: number;
  /** When the client closed the connection before the answer ended; null otherwise (so far). */
  readonly clientClosedAt: number | null;
  /**
   * Settles when the answer is over: `completed`; `client_closed` when the client went away first;
   * `dropped` when the script had the server cut the connection.
   */
  readonly outcome: Promise<RequestOutcome>;
}

/** What makes a server speak one provider's API. One file per provider implements it. */
export interface ProviderDialect {
  /** The path a ProviderTarget's `baseUrl` ends with: `/v1` for OpenAI, empty for Anthropic and Ollama. */
  readonly basePath: string;
  /** The model-call endpoint; a pattern where the path names the model (Gemini's `/v1beta/models/{model}:streamGenerateContent`). */
  readonly modelCallPath: string | RegExp;
  readonly modelListPath: string;
  /**
   * The provider's real answer when it would refuse the request before looking at it (a missing or
   * wrong key, a missing required header); null when it passes. `apiKey` null accepts any key.
   */
  rejection(headers: IncomingHttpHeaders, apiKey: string | null): ScriptedError | null;
  /** Answered when a model call arrives and nothing is scripted. */
  unscripted(): ScriptedError;
  modelListBody(models: readonly ScriptedModel[]): unknown;
  writeStream(out: StreamWriter, reply: ScriptedStream, request: RecordedRequest): Promise<void>;
  /** The tool results a model-call body carries, in order. */
  toolResultsIn(body: unknown): RecordedToolResult[];
  /** A provider's model-details endpoint (Ollama's `POST /api/show`): its path and its answer for a request body. */
  readonly modelDetails?: {
    readonly path: string;
    answer(body: unknown, models: readonly ScriptedModel[]): ScriptedError | { readonly body: unknown };
  };
}

/** A tool result as a client sent it back to the model; `isError` is null where the format has no such flag. */
export interface RecordedToolResult {
  readonly toolCallId: string | null;
  readonly content: string;
  readonly isError: boolean | null;
}

export interface ProviderTestServerOptions {
  /** The key requests must carry; null accepts every request. Defaults to `test-key`. */
  readonly apiKey?: string | null;
  /** What the model-list endpoint lists. */
  readonly models?: readonly ScriptedModel[];
  /** Answered when the queue is empty (a function answers from the request, as a model reads its prompt); defaults to the dialect's "nothing scripted" error. */
  readonly fallbackReply?: QueuedReply;
}

export interface ProviderTestServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** What to put in a ProviderTarget's `baseUrl`. */
  readonly baseUrl: string;
  /** Every request received, in order. */
  readonly requests: readonly RecordedRequest[];
  /** The model calls among them (POSTs to the chat endpoint), in order. */
  modelCalls(): readonly RecordedRequest[];
  /** The tool results the `index`-th model call sent (e.g. the answer to an `ask_user` call); throws if there is no such call. */
  toolResultsIn(index: number): RecordedToolResult[];
  /**
   * The result of the tool call `toolCallId` as the newest model call that carries it sent it back, or
   * null: for a test that cannot know which call that is (a client may retry a request, or make
   * another, under load).
   */
  toolResultFor(toolCallId: string): RecordedToolResult | null;
  /** Queues replies for the next model calls, answered in order; a function answers from the request (as a model reads its prompt). */
  enqueue(...replies: QueuedReply[]): void;
  /** Drops the replies no call took (a test that failed early leaves its own), so they never answer the next test. */
  discardQueued(): void;
  /** Resolves with the `index`-th model call (0-based) once it has arrived. */
  waitForModelCall(index: number): Promise<RecordedRequest>;
  setModels(models: readonly ScriptedModel[]): void;
  /** Closes the server and every open connection; closing again is harmless. */
  close(): Promise<void>;
}

export const TEST_API_KEY = 'test-key';

/** A reply, or one chosen from the request it answers. */
export type QueuedReply = ScriptedReply | ((request: RecordedRequest) => ScriptedReply);

/** A model the list endpoint shows: an id, or an id with the label the provider would show (and the context length it reports). */
export type ScriptedModel = string | { readonly id: string; readonly label: string; readonly contextLength?: number };

export function modelIdOf(model: ScriptedModel): string {
  return typeof model === 'string' ? model : model.id;
}

interface MutableRecord extends RecordedRequest {
  clientClosedAt: number | null;
}

/** Starts a real HTTP server on 127.0.0.1 (a free port) speaking `dialect`. */
export async function startProviderTestServer(
  dialect: ProviderDialect,
  options: ProviderTestServerOptions = {},
): Promise<ProviderTestServer> {
  const apiKey = options.apiKey === undefined ? TEST_API_KEY : options.apiKey;
  let models = options.models ?? [];
  const queue: QueuedReply[] = [];
  const requests: MutableRecord[] = [];
  const callWaiters: { index: number; resolve: (request: RecordedRequest) => void }[] = [];

  const modelCalls = () =>
    requests.filter(
      (request) => request.method === 'POST' && isModelCallPath(dialect, request.path.split('?')[0] ?? ''),
    );

  function notifyCallWaiters() {
    const calls = modelCalls();
    for (const waiter of [...callWaiters]) {
      const call = calls[waiter.index];
      if (call !== undefined) {
        callWaiters.splice(callWaiters.indexOf(waiter), 1);
        waiter.resolve(call);
      }
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const rawBody = await readBody(req);
    let settle: (outcome: RequestOutcome) => void = () => {};
    const outcome = new Promise<RequestOutcome>((resolve) => (settle = resolve));
    let dropped = false;
    const record: MutableRecord = {
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers: flattenHeaders(req.headers),
      body: parseJson(rawBody),
      receivedAt: Date.now(),
      clientClosedAt: null,
      outcome,
    };
    let clientGone: () => void = () => {};
    const clientGonePromise = new Promise<void>((resolve) => (clientGone = resolve));
    res.on('close', () => {
      if (res.writableFinished) settle('completed');
      else if (dropped) settle('dropped');
      else {
        record.clientClosedAt = Date.now();
        settle('client_closed');
      }
      clientGone();
    });
    requests.push(record);
    notifyCallWaiters();

    const path = record.path.split('?')[0];
    const rejection = dialect.rejection(req.headers, apiKey);
    if (rejection !== null) return sendError(res, rejection);
    if (req.method === 'GET' && path === dialect.modelListPath)
      return sendJson(res, 200, dialect.modelListBody(models));
    if (req.method === 'POST' && dialect.modelDetails !== undefined && path === dialect.modelDetails.path) {
      const answer = dialect.modelDetails.answer(record.body, models);
      return 'kind' in answer ? sendError(res, answer) : sendJson(res, 200, answer.body);
    }
    if (req.method === 'POST' && isModelCallPath(dialect, path ?? '')) {
      const queued = queue.shift();
      const next = queued ?? options.fallbackReply;
      const reply = (typeof next === 'function' ? next(record) : next) ?? dialect.unscripted();
      if (reply.kind === 'error') return sendError(res, reply);
      return dialect.writeStream(
        createStreamWriter(res, clientGonePromise, () => (dropped = true)),
        reply,
        record,
      );
    }
    return sendJson(res, 404, { error: `test server: no route for ${req.method} ${path}` });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: `test server failed: ${String(error)}` });
      else res.destroy();
    });
  });
  // Node closes an idle kept-alive connection after 5 s; the client (fetch) keeps it ~4 s. On a loaded
  // machine the two timers cross and a request goes out on a connection the server is closing: a
  // "network error" and a retry the test never scripted (loaded run: "attempt 3" where 2 was due).
  // Providers keep connections far longer; so does this server.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  let closing: Promise<void> | undefined;

  return {
    origin,
    baseUrl: `${origin}${dialect.basePath}`,
    requests,
    modelCalls,
    toolResultsIn(index) {
      const call = modelCalls()[index];
      if (call === undefined)
        throw new Error(`test server: there is no model call #${index} (${modelCalls().length} so far)`);
      return dialect.toolResultsIn(call.body);
    },
    toolResultFor(toolCallId) {
      for (const call of [...modelCalls()].reverse()) {
        const result = dialect.toolResultsIn(call.body).find((candidate) => candidate.toolCallId === toolCallId);
        if (result !== undefined) return result;
      }
      return null;
    },
    enqueue: (...replies) => void queue.push(...replies),
    discardQueued: () => void queue.splice(0),
    waitForModelCall(index) {
      return new Promise((resolve) => {
        callWaiters.push({ index, resolve });
        notifyCallWaiters();
      });
    },
    setModels(next) {
      models = next;
    },
    close() {
      closing ??= new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

function isModelCallPath(dialect: ProviderDialect, path: string): boolean {
  return typeof dialect.modelCallPath === 'string' ? path === dialect.modelCallPath : dialect.modelCallPath.test(path);
}

function sendError(res: ServerResponse, reply: ScriptedError) {
  const isText = typeof reply.body === 'string';
  res.writeHead(reply.status, { 'content-type': isText ? 'text/plain' : 'application/json', ...reply.headers });
  res.end(isText ? reply.body : JSON.stringify(reply.body));
}

function sendJson(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}
