import { describe, expect, it } from 'vitest';
import { countStreamChunks, parseDirective, streamChunk } from './scripted-directives';

describe('parseDirective', () => {
  it.each([
    ['hello', { kind: 'reply', text: 'hello' }],
    ['/stream 200 20', { kind: 'stream', chunks: 200, intervalMs: 20 }],
    ['/stream', { kind: 'stream', chunks: 10, intervalMs: 20 }],
    ['/stream -5 abc', { kind: 'stream', chunks: 1, intervalMs: 20 }],
    ['/hold', { kind: 'hold' }],
    ['/fail rate_limited Too many requests', { kind: 'fail', code: 'rate_limited', message: 'Too many requests' }],
    ['/fail', { kind: 'fail', code: 'server_error', message: 'The scripted provider failed on request' }],
    ['/fail BAD!code', { kind: 'fail', code: 'server_error', message: 'The scripted provider failed on request' }],
    ['/steps 4', { kind: 'steps', steps: 4 }],
    ['  /unknown thing ', { kind: 'reply', text: '/unknown thing' }],
    ['/remember Uses pnpm', { kind: 'tool', toolName: 'remember', input: { text: 'Uses pnpm', scope: 'workspace' } }],
    ['/remember global Answer briefly', { kind: 'tool', toolName: 'remember', input: { text: 'Answer briefly', scope: 'global' } }],
    ['/remember', { kind: 'bad_directive', message: 'Usage: /remember [global] TEXT' }],
    ['/recall staging server', { kind: 'tool', toolName: 'recall', input: { query: 'staging server' } }],
    ['/recall', { kind: 'bad_directive', message: 'Usage: /recall QUERY' }],
  ])('%j', (text, expected) => {
    expect(parseDirective(text)).toEqual(expected);
  });
});

describe('stream chunks', () => {
  it('resume counts the highest chunk already streamed', () => {
    const text = [1, 2, 3].map((index) => streamChunk(index, 30)).join('');
    expect(countStreamChunks(text, 30)).toBe(3);
    expect(countStreamChunks(text, 300)).toBe(0);
    expect(countStreamChunks('', 30)).toBe(0);
  });
});
