import { describe, expect, it } from 'vitest';
import { createPairingCodes } from './pairing-codes';

describe('pairing codes', () => {
  it('a code is good once, for 5 minutes of the injected clock', () => {
    let now = 1_000_000;
    const codes = createPairingCodes({ now: () => now });
    const first = codes.issue();
    expect(first.code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    expect(first.expiresAt).toBe(now + 5 * 60_000);
    expect(codes.check(first.code.toLowerCase().replace('-', ' '))).toBe('ok');
    expect(codes.check(first.code)).toBe('none');
    const second = codes.issue();
    now += 5 * 60_000 - 1;
    expect(codes.active()?.code).toBe(second.code);
    now += 1;
    expect(codes.check(second.code)).toBe('expired');
  });

  it('dies after 5 wrong tries in total', () => {
    const codes = createPairingCodes({ now: () => 0 });
    const { code } = codes.issue();
    for (let attempt = 0; attempt < 5; attempt += 1) expect(codes.check('AAAA-AAAA')).toBe('wrong');
    expect(codes.active()).toBeNull();
    expect(codes.check(code)).not.toBe('ok');
  });
});
