import { randomInt } from 'node:crypto';

/**
 * The pairing code on show: one at a time, valid for `ttlMs` (5 minutes) and for one device. A right
 * code is used up; wrong tries count against the code (not against anyone's address), and after
 * `maxWrongTries` (5) in total it is dead — a paired device or the desktop never notices.
 */

/** No 0/O, 1/I/L: a code read off a screen and typed on a phone. */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const LENGTH = 8;

export type CodeCheck = 'ok' | 'wrong' | 'expired' | 'none';

export interface PairingCodes {
  /** A new code, replacing any other. */
  issue(): { code: string; expiresAt: number };
  /** Checks a typed code; `ok` uses it up. */
  check(typed: string): CodeCheck;
  /** The code on show, if it is still alive. */
  active(): { code: string; expiresAt: number } | null;
  cancel(): boolean;
}

export function createPairingCodes(options: {
  now: () => number;
  ttlMs?: number;
  maxWrongTries?: number;
}): PairingCodes {
  const ttlMs = options.ttlMs ?? 5 * 60_000;
  const maxWrongTries = options.maxWrongTries ?? 5;
  let current: { code: string; expiresAt: number; wrongTries: number } | null = null;
  const alive = () => {
    if (current !== null && options.now() >= current.expiresAt) current = null;
    return current;
  };
  return {
    issue() {
      let code = '';
      for (let index = 0; index < LENGTH; index += 1) code += ALPHABET[randomInt(ALPHABET.length)];
      current = { code, expiresAt: options.now() + ttlMs, wrongTries: 0 };
      return { code: formatCode(code), expiresAt: current.expiresAt };
    },
    check(typed) {
      const hadOne = current !== null;
      const code = alive();
      if (code === null) return hadOne ? 'expired' : 'none';
      if (normalizeCode(typed) === code.code) {
        current = null;
        return 'ok';
      }
      code.wrongTries += 1;
      if (code.wrongTries >= maxWrongTries) current = null;
      return 'wrong';
    },
    active() {
      const code = alive();
      return code === null ? null : { code: formatCode(code.code), expiresAt: code.expiresAt };
    },
    cancel() {
      const had = alive() !== null;
      current = null;
      return had;
    },
  };
}

/** ABCD-EFGH, as shown. */
function formatCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** What a person may type: lower case, spaces or a dash. */
function normalizeCode(typed: string): string {
  return typed.toUpperCase().replace(/[\s-]/g, '');
}
