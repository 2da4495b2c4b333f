import { describe, expect, it } from 'vitest';
import { lastChars, LiveOutput, OutputTail } from './shell-output';

describe('OutputTail', () => {
  it('keeps everything under the cap, untruncated', () => {
    const tail = new OutputTail(10);
    tail.push(Buffer.from('abc'));
    tail.push(Buffer.from('def'));
    expect([tail.text(), tail.truncated, tail.totalBytes]).toEqual(['abcdef', false, 6]);
  });

  it('keeps the last bytes over the cap, with bounded memory, and flags the cut', () => {
    const tail = new OutputTail(4);
    for (const piece of ['hello', ' ', 'wor', 'ld', '!!!!!!!!!!']) tail.push(Buffer.from(piece));
    tail.push(Buffer.from('1234'));
    expect([tail.text(), tail.truncated, tail.totalBytes]).toEqual(['1234', true, 25]);
  });

  it('skips a multi-byte character cut at the start instead of mangling it', () => {
    const tail = new OutputTail(5);
    tail.push(Buffer.from('xé€ok')); // the last 5 bytes are exactly € (3 bytes) and "ok"
    expect(tail.text()).toBe('€ok');
    const cut = new OutputTail(4);
    cut.push(Buffer.from('a€ok')); // last 4 bytes start inside €
    expect(cut.text()).toBe('ok');
  });
});

describe('LiveOutput', () => {
  it('decodes characters split across chunks', () => {
    const live = new LiveOutput(100);
    const euro = Buffer.from('€');
    live.push(euro.subarray(0, 1));
    expect(live.take()).toBe('');
    live.push(euro.subarray(1));
    expect(live.take()).toBe('€');
  });

  it('keeps the end of an oversized piece and says how much was skipped', () => {
    const live = new LiveOutput(5);
    live.push(Buffer.from('0123456789'));
    live.push(Buffer.from('abc'));
    expect(live.take()).toBe('[… 8 characters skipped …]\n89abc');
    expect(live.take()).toBe('');
  });
});

describe('lastChars', () => {
  it('cuts from the front', () => {
    expect(lastChars('abcdef', 3)).toEqual({ text: 'def', cut: true });
    expect(lastChars('ab', 3)).toEqual({ text: 'ab', cut: false });
  });
});
