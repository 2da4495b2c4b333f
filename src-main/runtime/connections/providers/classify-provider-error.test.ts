import { APICallError, RetryError } from 'ai';
import { describe, expect, it } from 'vitest';
import { classifyProviderError } from './classify-provider-error';
import { ProviderError } from './provider-error';

function apiError(
  statusCode: number,
  body: unknown,
  headers: Record<string, string> = {},
  cause?: unknown,
): APICallError {
  const responseBody = typeof body === 'string' ? body : JSON.stringify(body);
  return new APICallError({
    message: 'Request failed',
    url: 'https://api.example.test/v1/chat/completions',
    requestBodyValues: {},
    statusCode,
    responseHeaders: headers,
    responseBody,
    cause,
  });
}

function networkError(code: string): TypeError {
  return new TypeError('fetch failed', { cause: Object.assign(new Error(`connect ${code} 127.0.0.1:9`), { code }) });
}

describe('classifyProviderError', () => {
  it.each([
    ['401', apiError(401, { error: { message: 'Invalid key' } }), 'bad_key', false],
    [
      '403',
      apiError(403, { type: 'error', error: { type: 'permission_error', message: 'Not allowed' } }),
      'bad_key',
      false,
    ],
    ['402', apiError(402, { error: { message: 'Payment required' } }), 'usage_limit', false],
    [
      '404 about a model',
      apiError(404, { error: { message: 'The model `x` does not exist' } }),
      'model_not_found',
      false,
    ],
    ['404 about no model (a wrong base URL)', apiError(404, 'Cannot POST /chat/completions'), 'bad_request', false],
    ['408', apiError(408, 'Request Timeout'), 'unreachable', true],
    [
      '413',
      apiError(413, {
        type: 'error',
        error: { type: 'request_too_large', message: 'Request exceeds the maximum size' },
      }),
      'context_too_long',
      false,
    ],
    ['422', apiError(422, { detail: 'Unprocessable' }), 'bad_request', false],
    ['500', apiError(500, { error: { message: 'boom' } }), 'server_error', true],
    ['502 with an HTML body', apiError(502, '<html>Bad Gateway</html>'), 'server_error', true],
    [
      '529',
      apiError(529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
      'server_error',
      true,
    ],
  ] as const)('maps HTTP %s', (_name, error, errorClass, transient) => {
    const result = classifyProviderError(error);
    expect(result).toBeInstanceOf(ProviderError);
    expect(result).toMatchObject({ errorClass, transient, status: error.statusCode });
  });

  it('reads a 429 as a rate limit, with its wait, even when the message links to the billing page', () => {
    const error = apiError(
      429,
      {
        error: {
          message:
            'Rate limit reached. You can increase your rate limit by adding a payment method at https://platform.openai.com/account/billing.',
          type: 'requests',
          code: 'rate_limit_exceeded',
        },
      },
      { 'retry-after-ms': '1500' },
    );
    expect(classifyProviderError(error)).toMatchObject({
      errorClass: 'rate_limited',
      transient: true,
      retryAfterMs: 1500,
      status: 429,
    });
  });

  it('reads a 429 about quota as a usage limit, which retrying does not fix', () => {
    const error = apiError(429, {
      error: {
        message: 'You exceeded your current quota, please check your plan and billing details.',
        type: 'insufficient_quota',
        code: 'insufficient_quota',
      },
    });
    expect(classifyProviderError(error)).toMatchObject({ errorClass: 'usage_limit', transient: false });
  });

  it('reads a 400 about the context window as context_too_long, and other 400s as bad_request', () => {
    expect(
      classifyProviderError(
        apiError(400, { error: { message: "This model's maximum context length is 8192 tokens." } }),
      ).errorClass,
    ).toBe('context_too_long');
    expect(
      classifyProviderError(
        apiError(400, {
          type: 'error',
          error: { type: 'invalid_request_error', message: 'prompt is too long: 210000 tokens > 200000 maximum' },
        }),
      ).errorClass,
    ).toBe('context_too_long');
    expect(
      classifyProviderError(apiError(400, { error: { message: "Invalid schema for function 'x'" } })).errorClass,
    ).toBe('bad_request');
  });

  it('quotes the provider in the message, without the API key', () => {
    const key = 'sk-ant-api03-abcdefghijklmnop';
    const result = classifyProviderError(apiError(401, { error: { message: `Invalid API key: ${key}` } }), {
      secrets: [key],
    });
    expect(result.message).toContain('Invalid API key');
    expect(result.message).not.toContain(key);
    expect(result.message).not.toContain('abcdefghijklmnop');
  });

  it('redacts anything shaped like a key even when it is not the one sent', () => {
    const result = classifyProviderError(
      apiError(401, { error: { message: 'Bad key sk-otherkey123456789 for Bearer abcdefghij123' } }),
    );
    expect(result.message).not.toMatch(/otherkey|abcdefghij123/);
  });

  it.each([
    ['ECONNREFUSED', /refused/],
    ['ENOTFOUND', /host name/],
    ['ETIMEDOUT', /timed out/],
    ['ECONNRESET', /reset/],
  ])('maps a network failure (%s) to unreachable', (code, message) => {
    const result = classifyProviderError(networkError(code));
    expect(result).toMatchObject({ errorClass: 'unreachable', transient: true, status: null });
    expect(result.message).toMatch(message);
  });

  it('maps the SDK wrapping of a network failure to unreachable', () => {
    const error = new APICallError({
      message: 'Cannot connect to API: connect ECONNREFUSED',
      url: 'http://127.0.0.1:9',
      requestBodyValues: {},
      cause: networkError('ECONNREFUSED').cause,
      isRetryable: true,
    });
    expect(classifyProviderError(error).errorClass).toBe('unreachable');
  });

  it('maps a broken successful answer (2xx, socket closed) to unreachable rather than by its status', () => {
    const socket = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    const error = apiError(200, '', {}, new TypeError('terminated', { cause: socket }));
    expect(classifyProviderError(error)).toMatchObject({ errorClass: 'unreachable', status: null });
  });

  it('maps aborts to aborted and timeouts to unreachable', () => {
    expect(classifyProviderError(new DOMException('This operation was aborted', 'AbortError')).errorClass).toBe(
      'aborted',
    );
    expect(classifyProviderError(new DOMException('The operation timed out.', 'TimeoutError'))).toMatchObject({
      errorClass: 'unreachable',
      transient: true,
    });
  });

  it('looks through a RetryError to the last error', () => {
    const error = new RetryError({
      message: 'Failed after 3 attempts',
      reason: 'maxRetriesExceeded',
      errors: [apiError(500, {}), apiError(429, {}, { 'retry-after': '4' })],
    });
    expect(classifyProviderError(error)).toMatchObject({ errorClass: 'rate_limited', retryAfterMs: 4000 });
  });

  it('maps error objects sent inside a stream by their type', () => {
    expect(classifyProviderError({ type: 'overloaded_error', message: 'Overloaded' })).toMatchObject({
      errorClass: 'server_error',
      transient: true,
    });
    expect(classifyProviderError({ type: 'rate_limit_error', message: 'Slow down' }).errorClass).toBe('rate_limited');
    expect(
      classifyProviderError({ message: 'Invalid key', type: 'invalid_request_error', code: 'invalid_api_key' })
        .errorClass,
    ).toBe('bad_key');
    expect(classifyProviderError('llama runner process has terminated').errorClass).toBe('server_error');
  });

  it('returns a ProviderError unchanged and classifies anything unknown as a server error', () => {
    const original = new ProviderError('bad_key', 'No.');
    expect(classifyProviderError(original)).toBe(original);
    expect(classifyProviderError(new Error('weird'))).toMatchObject({ errorClass: 'server_error' });
  });
});
