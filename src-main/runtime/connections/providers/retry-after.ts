/**
 * How long a provider asks us to wait before retrying, read from its response headers, in this order:
 * `retry-after-ms` (OpenAI), `retry-after` (seconds or an HTTP date), Anthropic's
 * `anthropic-ratelimit-*-reset` (RFC 3339 instants), OpenAI's `x-ratelimit-reset-*` (`1s`, `6m0s`,
 * `20ms`). Null when none of them says.
 */
export function retryAfterMsFrom(headers: Readonly<Record<string, string>> | undefined, now: number): number | null {
  if (headers === undefined) return null;
  const header = (name: string): string | undefined => {
    for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name) return value.trim();
    return undefined;
  };

  const ms = Number.parseFloat(header('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return Math.round(ms);

  const retryAfter = header('retry-after');
  if (retryAfter !== undefined && retryAfter !== '') {
    if (/^\d+(\.\d+)?$/.test(retryAfter)) return Math.round(Number(retryAfter) * 1000);
    const at = Date.parse(retryAfter);
    if (Number.isFinite(at)) return Math.max(0, at - now);
  }

  const anthropicResets = ['requests', 'tokens', 'input-tokens', 'output-tokens']
    .map((kind) => Date.parse(header(`anthropic-ratelimit-${kind}-reset`) ?? ''))
    .filter(Number.isFinite)
    .map((at) => Math.max(0, at - now));
  if (anthropicResets.length > 0) return Math.max(...anthropicResets);

  const openAIResets = ['requests', 'tokens']
    .map((kind) => durationMs(header(`x-ratelimit-reset-${kind}`) ?? ''))
    .filter((value): value is number => value !== null);
  if (openAIResets.length > 0) return Math.max(...openAIResets);

  return null;
}

const UNIT_MS: Readonly<Record<string, number>> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 };

/** A Go-style duration such as `1s`, `6m0s`, `1h2m3.5s` or `20ms`, in milliseconds; null if it is not one. */
function durationMs(text: string): number | null {
  if (!/^(\d+(\.\d+)?(h|ms|m|s))+$/.test(text)) return null;
  let total = 0;
  for (const [, amount, , unit] of text.matchAll(/(\d+(\.\d+)?)(h|ms|m|s)/g))
    total += Number(amount) * (UNIT_MS[unit ?? 's'] ?? 0);
  return Math.round(total);
}
