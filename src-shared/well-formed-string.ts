import { z } from 'zod';

/** A lone UTF-16 surrogate: half of a pair, which no text can store (SQLite would keep U+FFFD). */
const LONE_SURROGATE = /\p{Cs}/u;

export const LONE_SURROGATE_MESSAGE =
  'This text contains an invalid character (half of a UTF-16 surrogate pair); nothing was saved.';

/**
 * The one way the contract builds a string schema: every string a client sends (titles, messages,
 * answers, ids, record keys) is refused with invalid_input when it holds a lone surrogate, before
 * anything is written. An ESLint rule keeps `z.string()` out of src-shared everywhere else.
 */
export function wellFormedString() {
  // eslint-disable-next-line no-restricted-syntax -- the one place a string schema is built
  return z.string().refine((value) => !LONE_SURROGATE.test(value), LONE_SURROGATE_MESSAGE);
}
