import { describe, expect, it } from 'vitest';
import { parseDirective } from './scripted-directives';

describe('scripted /spawn directives', () => {
  it('reads the agent, a quoted task (a JSON string, so it may hold quotes) and wait', () => {
    expect(parseDirective('/spawn explore "Find the bug" wait')).toEqual({
      kind: 'spawn',
      agent: 'explore',
      tasks: ['Find the bug'],
      wait: true,
    });
    expect(parseDirective('/spawn worker "/spawn explore \\"/hold\\""')).toEqual({
      kind: 'spawn',
      agent: 'worker',
      tasks: ['/spawn explore "/hold"'],
      wait: false,
    });
  });

  it('/spawn-many starts N children, worker streaming by default', () => {
    expect(parseDirective('/spawn-many 3 wait')).toEqual({
      kind: 'spawn',
      agent: 'worker',
      tasks: ['/stream 12 40', '/stream 12 40', '/stream 12 40'],
      wait: true,
    });
    expect(parseDirective('/spawn-many 2 explore "/hold"')).toMatchObject({
      agent: 'explore',
      tasks: ['/hold', '/hold'],
      wait: false,
    });
  });

  it('says how to use it when the directive is malformed', () => {
    for (const text of [
      '/spawn',
      '/spawn explore',
      '/spawn explore "unclosed',
      '/spawn explore "x" later',
      '/spawn-many x',
    ]) {
      expect(parseDirective(text)).toMatchObject({
        kind: 'bad_directive',
        message: expect.stringMatching(/^Usage: \/spawn/),
      });
    }
  });
});
