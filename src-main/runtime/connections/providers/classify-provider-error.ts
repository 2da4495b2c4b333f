import { APICallError, RetryError } from 'ai';
import { ProviderError, type ProviderErrorClass } from './provider-error';
import { redactSecrets } from './redact-secrets';
import { retryAfterMsFrom } from './retry-after';

export interface ClassifyContext {
  /** Strings the message must never contain (the API key). */
  readonly secrets?: readonly (string | null)[];
  /** The current time, for `retry-after` given as a date. */
  readonly now?: number;
}

/**
 * Maps whatever a model call threw (AI SDK errors, fetch and socket errors, aborts, error chunks in a
 * stream) onto a ProviderError with a message for a person.
 */
export function classifyProviderError(error: unknown, context: ClassifyContext = {}): ProviderError {
  if (error instanceof ProviderError) return error;
  const secrets = context.secrets ?? [];
  const make = (
    errorClass: ProviderErrorClass,
    message: string,
    status: number | null = null,
    retryAfterMs: number | null = null,
  ) => new ProviderError(errorClass, redactSecrets(message, secrets), { status, retryAfterMs });

  if (RetryError.isInstance(error)) return classifyProviderError(error.lastError, context);
  if (isAbort(error)) return make('aborted', 'The model call was stopped.');
  if (isTimeout(error)) return make('unreachable', 'The provider did not answer in time.');

  // A failure while reading a successful (2xx) answer is about the connection or the content, not the status.
  if (APICallError.isInstance(error) && error.statusCode !== undefined && error.statusCode >= 300) {
    const detail = providerDetail(error.responseBody, error.message);
    const retryAfterMs = retryAfterMsFrom(error.responseHeaders, context.now ?? Date.now());
    return classifyStatus(error.statusCode, detail, `${error.responseBody ?? ''} ${error.message}`, make, retryAfterMs);
  }

  const network = networkFailure(error);
  if (network !== null) return make('unreachable', network);

  // Ollama's in-stream `{"error": "..."}` line fails the SDK's chunk schema; the error is inside.
  const embedded = /TypeValidation/.test(errorName(error)) ? dig(error, 'value', 'error') : undefined;
  const streamed = streamedErrorClass(embedded ?? error);
  if (streamed !== null)
    return make(streamed.errorClass, `${streamed.summary}: ${detailOf(embedded ?? error)}`, streamed.status);

  if (/InvalidResponseData|TypeValidation|JSONParse|NoOutputGenerated/.test(errorName(error))) {
    return make('server_error', `The provider sent an answer Cairn could not read: ${detailOf(error)}`);
  }
  return make('server_error', `The model call failed: ${detailOf(error)}`);
}

type Make = (
  errorClass: ProviderErrorClass,
  message: string,
  status?: number | null,
  retryAfterMs?: number | null,
) => ProviderError;

function classifyStatus(
  status: number,
  detail: string,
  evidence: string,
  make: Make,
  retryAfterMs: number | null,
): ProviderError {
  const text = evidence.toLowerCase();
  const said = detail === '' ? '' : ` The provider said: ${detail}`;
  if (status === 401 || status === 403)
    return make('bad_key', `The API key was not accepted (${status}).${said}`, status);
  if (status === 402 || (status < 500 && mentionsUsageLimit(text)))
    return make('usage_limit', `The account's usage limit or credit is exhausted (${status}).${said}`, status);
  if (status === 429)
    return make('rate_limited', `The provider is rate limiting requests (429).${said}`, status, retryAfterMs);
  if (status === 413 || mentionsContextLimit(text))
    return make(
      'context_too_long',
      `The conversation is too long for this model's context window (${status}).${said}`,
      status,
    );
  if (status === 404) {
    // `\bmodel\b`, not `model`: a 404 page for a wrong path names `/v1/models`.
    return /\bmodel\b|model_not_found/.test(text)
      ? make('model_not_found', `The provider does not know this model (404).${said}`, status)
      : make('bad_request', `The provider has no such endpoint (404): check the base URL.${said}`, status);
  }
  if (status === 408) return make('unreachable', `The provider timed out (408).${said}`, status, retryAfterMs);
  if (status === 409 || status >= 500)
    return make('server_error', `The provider had a server error (${status}).${said}`, status, retryAfterMs);
  return make('bad_request', `The provider rejected the request (${status}).${said}`, status);
}

function mentionsUsageLimit(text: string): boolean {
  // Not a bare "billing": OpenAI rate-limit messages link to the billing page.
  return /insufficient_quota|exceeded your current quota|billing details|billing_error|plans & billing|credit balance|insufficient credits|out of credits|usage limit/.test(
    text,
  );
}

function mentionsContextLimit(text: string): boolean {
  return /context[ _-]length|context window|context size|maximum context|n_ctx|too many tokens|prompt is too long|prompt too long|input is too long|reduce the length/.test(
    text,
  );
}

/** Anthropic and OpenAI-compatible servers can send an error object inside an already-open stream. */
function streamedErrorClass(
  error: unknown,
): { errorClass: ProviderErrorClass; summary: string; status: number | null } | null {
  if (error instanceof Error) return null;
  if (typeof error !== 'string' && (typeof error !== 'object' || error === null)) return null;
  const record = typeof error === 'string' ? {} : (error as Record<string, unknown>);
  const type = [record.type, record.code].filter((value) => typeof value === 'string').join(' ');
  const text = `${type} ${detailOf(error)}`.toLowerCase();
  if (/overloaded/.test(text))
    return { errorClass: 'server_error', summary: 'The provider is overloaded', status: 529 };
  if (/rate_limit/.test(text))
    return { errorClass: 'rate_limited', summary: 'The provider is rate limiting requests', status: 429 };
  if (/authentication|permission|invalid_api_key/.test(text))
    return { errorClass: 'bad_key', summary: 'The API key was not accepted', status: 401 };
  if (mentionsUsageLimit(text))
    return { errorClass: 'usage_limit', summary: "The account's usage limit or credit is exhausted", status: null };
  if (mentionsContextLimit(text))
    return {
      errorClass: 'context_too_long',
      summary: "The conversation is too long for this model's context window",
      status: null,
    };
  if (/api_error|server_error|internal/.test(text))
    return { errorClass: 'server_error', summary: 'The provider had a server error', status: 500 };
  if (type === '' && typeof record.message !== 'string' && typeof error !== 'string') return null;
  return { errorClass: 'server_error', summary: 'The provider reported an error mid-stream', status: null };
}

const CANNOT_CONNECT = 'Could not connect to the provider';
const NETWORK_CODES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    ECONNREFUSED: `${CANNOT_CONNECT}: the connection was refused (is the server running?).`,
    ENOTFOUND: `${CANNOT_CONNECT}: its host name was not found.`,
    EAI_AGAIN: `${CANNOT_CONNECT}: its host name could not be looked up.`,
    EHOSTUNREACH: `${CANNOT_CONNECT}: the host is unreachable.`,
    ENETUNREACH: `${CANNOT_CONNECT}: the network is unreachable.`,
    ETIMEDOUT: `${CANNOT_CONNECT}: the connection timed out.`,
    UND_ERR_CONNECT_TIMEOUT: `${CANNOT_CONNECT}: the connection timed out.`,
    UND_ERR_HEADERS_TIMEOUT: 'The provider did not answer in time.',
    UND_ERR_BODY_TIMEOUT: 'The provider stopped sending in the middle of its answer.',
    ECONNRESET: 'The connection to the provider was reset.',
    EPIPE: 'The connection to the provider was closed.',
    UND_ERR_SOCKET: 'The connection to the provider closed in the middle of its answer.',
    UND_ERR_CLOSED: 'The connection to the provider was closed.',
  }),
);

/** A description of the network failure anywhere in the error's cause chain, or null. */
function networkFailure(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && typeof current === 'object' && current !== null; depth += 1) {
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    const known = typeof code === 'string' ? NETWORK_CODES.get(code) : undefined;
    if (known !== undefined) return known;
    if (
      cause === undefined &&
      typeof message === 'string' &&
      /^(fetch failed|terminated|Cannot connect to API)/i.test(message)
    )
      return `${CANNOT_CONNECT}.`;
    current = cause;
  }
  return null;
}

function isAbort(error: unknown): boolean {
  return hasName(error, 'AbortError') || hasName(error, 'ResponseAborted');
}

function isTimeout(error: unknown): boolean {
  return hasName(error, 'TimeoutError');
}

function hasName(error: unknown, name: string): boolean {
  return errorName(error) === name;
}

function errorName(error: unknown): string {
  const name = typeof error === 'object' && error !== null ? (error as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? name : '';
}

/** The provider's own words from an error body (`error.message`, `error`, `message`), else `fallback`. */
function providerDetail(body: string | undefined, fallback: string): string {
  const parsed = parseJson(body);
  const candidates = [
    dig(parsed, 'error', 'message'),
    dig(parsed, 'error'),
    dig(parsed, 'message'),
    dig(parsed, 'detail'),
  ];
  const found = candidates.find((value): value is string => typeof value === 'string' && value.trim() !== '');
  return clip(found ?? (body !== undefined && body.trim() !== '' && parsed === undefined ? body : fallback));
}

function detailOf(error: unknown): string {
  if (typeof error === 'string') return clip(error);
  const message = dig(error, 'message');
  return clip(typeof message === 'string' ? message : (JSON.stringify(error) ?? String(error)));
}

function dig(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function clip(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
