import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OFFLINE_DEMO_DIRECTIVES } from '../../../../src-shared/offline-demo-directives';
import { countStreamChunks, parseDirective, streamChunk } from './scripted-directives';

describe('parseDirective', () => {
  it.each([
    ['hello', { kind: 'reply', text: 'hello' }],
    ['/stream 200 20', { kind: 'stream', chunks: 200, intervalMs: 20, markdown: false }],
    ['/stream 200 20 markdown', { kind: 'stream', chunks: 200, intervalMs: 20, markdown: true }],
    ['/stream', { kind: 'stream', chunks: 10, intervalMs: 20, markdown: false }],
    ['/stream -5 abc', { kind: 'stream', chunks: 1, intervalMs: 20, markdown: false }],
    ['/hold', { kind: 'hold' }],
    ['/fail rate_limited Too many requests', { kind: 'fail', code: 'rate_limited', message: 'Too many requests' }],
    ['/fail', { kind: 'fail', code: 'server_error', message: 'The scripted provider failed on request' }],
    ['/fail BAD!code', { kind: 'fail', code: 'server_error', message: 'The scripted provider failed on request' }],
    ['/steps 4', { kind: 'steps', steps: 4 }],
    ['  /unknown thing ', { kind: 'reply', text: '/unknown thing' }],
    ['/remember Uses pnpm', { kind: 'tool', toolName: 'remember', input: { text: 'Uses pnpm', scope: 'workspace' } }],
    [
      '/remember global Answer briefly',
      { kind: 'tool', toolName: 'remember', input: { text: 'Answer briefly', scope: 'global' } },
    ],
    ['/remember', { kind: 'bad_directive', message: 'Usage: /remember [global] TEXT' }],
    ['/recall staging server', { kind: 'tool', toolName: 'recall', input: { query: 'staging server' } }],
    ['/recall', { kind: 'bad_directive', message: 'Usage: /recall QUERY' }],
  ])('%j', (text, expected) => {
    expect(parseDirective(text)).toEqual(expected);
  });
});

describe('the directives the UI offers', () => {
  it('name every directive the agent knows, each example one it reads as that directive', () => {
    const source = readFileSync(new URL('./scripted-directives.ts', import.meta.url), 'utf8');
    const known = [...source.matchAll(/case '(\/[a-z-]+)':/g)].map((match) => match[1]).sort();
    const offered = [
      ...new Set(
        OFFLINE_DEMO_DIRECTIVES.flatMap((directive) =>
          directive.example.startsWith('/') ? [directive.example.split(' ')[0]] : [],
        ),
      ),
    ].sort();
    expect(offered).toEqual(known);
    for (const directive of OFFLINE_DEMO_DIRECTIVES.filter((entry) => entry.example.startsWith('/'))) {
      expect(parseDirective(directive.example).kind, directive.example).not.toMatch(/^(reply|bad_directive)$/);
    }
  });
});

describe('stream chunks', () => {
  it('resume counts the highest chunk already streamed', () => {
    const text = [1, 2, 3].map((index) => streamChunk(index, 30)).join('');
    expect(countStreamChunks(text, 30)).toBe(3);
    expect(countStreamChunks(text, 300)).toBe(0);
    expect(countStreamChunks('', 30)).toBe(0);
  });

  it('a Markdown stream has headings, inline code and closed code blocks, and resume counts it the same way', () => {
    const chunks = (total: number) =>
      Array.from({ length: total }, (_, index) => streamChunk(index + 1, total, true)).join('');
    const text = chunks(40);
    expect(text.match(/^### Part \d+$/gm)).toEqual(['### Part 1', '### Part 2']);
    expect(text).toContain('`chunk 2/40`');
    expect(text.match(/^```/gm)).toHaveLength(4);
    expect(text).toContain("const value12 = 'chunk 12/40';");
    expect(countStreamChunks(text, 40)).toBe(40);
    // A stream that ends inside a code block closes it.
    for (const total of [1, 11, 15, 20])
      expect(chunks(total).match(/^```|```$/gm)?.length ?? 0).toSatisfy((fences: number) => fences % 2 === 0);
  });
});
