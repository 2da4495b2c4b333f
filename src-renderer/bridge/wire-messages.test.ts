import { describe, expect, it } from 'vitest';
import { decodeHostFrame } from './wire-messages';

describe('decodeHostFrame', () => {
  it('passes on an event whose envelope is well-formed, whatever its kind', () => {
    const event = { seq: 3, hostEpoch: 'e1', kind: 'not.known.yet', extra: true };
    expect(decodeHostFrame(JSON.stringify({ event }))).toEqual({ type: 'event', event });
  });

  it('reads responses, mapping an unknown error code to internal_failure', () => {
    expect(decodeHostFrame(JSON.stringify({ id: 7, ok: true, result: { a: 1 } }))).toEqual({
      type: 'response',
      id: 7,
      ok: true,
      result: { a: 1 },
    });
    expect(
      decodeHostFrame(JSON.stringify({ id: 'x', ok: false, error: { code: 'not_found', message: 'Gone' } })),
    ).toEqual({
      type: 'response',
      id: 'x',
      ok: false,
      error: { code: 'not_found', message: 'Gone' },
    });
    expect(
      decodeHostFrame(JSON.stringify({ id: null, ok: false, error: { code: 'no_such_code', message: 'Odd' } })),
    ).toMatchObject({ error: { code: 'internal_failure' } });
    expect(decodeHostFrame(JSON.stringify({ id: 1, ok: false }))).toMatchObject({
      ok: false,
      error: { code: 'internal_failure' },
    });
  });

  it('reads the welcome', () => {
    expect(decodeHostFrame(JSON.stringify({ welcome: { protocol: 1, hostEpoch: 'e1' } }))).toEqual({
      type: 'welcome',
      protocol: 1,
      hostEpoch: 'e1',
    });
  });

  it('ignores anything malformed', () => {
    for (const text of [
      'not json',
      '[]',
      'null',
      JSON.stringify({ event: { seq: 1.5, hostEpoch: 'e', kind: 'k' } }),
      JSON.stringify({ event: { seq: 1, kind: 'k' } }),
      JSON.stringify({ id: {}, ok: true }),
      JSON.stringify({ id: 1, ok: 'yes' }),
      JSON.stringify({ id: 1, ok: false, error: { code: 5 } }),
      JSON.stringify({ welcome: { protocol: 1, hostEpoch: '' } }),
      JSON.stringify({ welcome: { protocol: '1', hostEpoch: 'e' } }),
    ]) {
      expect(decodeHostFrame(text), text).toEqual({ type: 'ignored' });
    }
  });
});
