import { createRequire } from 'node:module';
import type * as GptTokenizer from 'gpt-tokenizer';
import type { ProviderType } from '../connections/providers/provider-types';
import { RecentMap } from '../ports/recent-map';

/**
 * The o200k tables cost about 50 MB of memory, so they load on the first count rather than at start
 * (counting is synchronous, so the package is required, not imported).
 */
let tokenizer: typeof GptTokenizer | null = null;
function countBpe(text: string): number {
  tokenizer ??= createRequire(import.meta.url)('gpt-tokenizer') as typeof GptTokenizer;
  return tokenizer.countTokens(text, NO_SPECIAL);
}

/**
 * Byte-pair encoding is quadratic in the length of a run without spaces (a megabyte of base64 takes
 * minutes), so long text is counted in slices. A token split at a slice edge counts twice: the
 * estimate errs a little high, never low.
 */
const SLICE_CHARS = 1_000;
const NO_SPECIAL = { disallowedSpecial: new Set<string>() };

/** Tokens of `text` under OpenAI's o200k encoding. */
export function countTokens(text: string): number {
  if (text.length <= SLICE_CHARS) return countBpe(text);
  let total = 0;
  for (let start = 0; start < text.length; start += SLICE_CHARS)
    total += countBpe(text.slice(start, start + SLICE_CHARS));
  return total;
}

/** Tokens of a structured value as a provider receives it (JSON). */
export function countValueTokens(value: unknown): number {
  return countTokens(typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));
}

/**
 * The bounds of a calibration factor. Other tokenizers rarely count fewer tokens than o200k; a
 * provider that reports far fewer (a server that fills in a dummy usage) must not make us send more
 * than fits, so the estimate never drops below 0.8 of ours.
 */
const MIN_FACTOR = 0.8;
const MAX_FACTOR = 3;

/** Sessions whose calibration is kept: far more than run at once, and a host open for days holds no more. */
export const SESSIONS_CALIBRATED = 1_000;

/**
 * The OpenAI tokenizer is exact for OpenAI models and an estimate for everyone else. For other
 * providers the estimate is scaled by how far off it was on the previous call of the same session:
 * the provider's reported input tokens divided by what we estimated for that request.
 */
export class TokenCalibration {
  /** Per session, the most recently used kept (a session forgotten starts again from 1, as after a restart). */
  private readonly factors = new RecentMap<string, number>(SESSIONS_CALIBRATED);

  factorFor(sessionId: string, providerType: ProviderType): number {
    if (providerType === 'openai') return 1;
    return this.factors.get(sessionId) ?? 1;
  }

  /** After a call: what we estimated for its input, and what the provider says it read. */
  observe(sessionId: string, providerType: ProviderType, estimated: number, reported: number): void {
    if (providerType === 'openai' || estimated <= 0 || reported <= 0) return;
    const factor = Math.min(MAX_FACTOR, Math.max(MIN_FACTOR, reported / estimated));
    this.factors.set(sessionId, factor);
  }
}
