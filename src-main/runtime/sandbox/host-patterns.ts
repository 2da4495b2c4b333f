/**
 * Host patterns of the network allowlist: an exact host (`registry.npmjs.org`), a wildcard for its
 * subdomains (`*.example.com`: `a.example.com`, `b.a.example.com`, not `example.com` itself) or an
 * IPv4 address, each with an optional `:port` (any port without one). Hosts compare lower-case.
 */

export interface HostPattern {
  /** The host, or for a wildcard the domain after `*.`. */
  readonly host: string;
  readonly wildcard: boolean;
  /** null: any port. */
  readonly port: number | null;
}

export type PatternParse =
  { readonly ok: true; readonly pattern: HostPattern } | { readonly ok: false; readonly message: string };

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const IPV4 = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

function validHostName(host: string): boolean {
  if (host.length === 0 || host.length > 253) return false;
  const labels = host.split('.');
  // A name of digits and dots only that is not an IPv4 address ("1.2.3") is refused, as browsers do.
  if (labels.every((label) => /^\d+$/.test(label))) return IPV4.test(host);
  return labels.every((label) => LABEL.test(label));
}

/** One pattern as typed; the message says what is wrong with it, naming it. */
export function parseHostPattern(text: string): PatternParse {
  const typed = text.trim().toLowerCase();
  const wrong = (why: string): PatternParse => ({
    ok: false,
    message: `"${text.trim()}" is not a host pattern: ${why}`,
  });
  if (typed === '') return wrong('it is empty.');
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(typed))
    return wrong('give the host without a scheme (registry.npmjs.org, not https://registry.npmjs.org).');
  if (typed.includes('/')) return wrong('give the host without a path.');
  if (typed.startsWith('[') || (typed.match(/:/g)?.length ?? 0) > 1)
    return wrong('IPv6 addresses are not supported; give a host name or an IPv4 address.');
  const [hostPart = '', portPart] = typed.split(':');
  let port: number | null = null;
  if (portPart !== undefined) {
    if (!/^\d{1,5}$/.test(portPart) || Number(portPart) < 1 || Number(portPart) > 65535)
      return wrong('the port must be a number from 1 to 65535.');
    port = Number(portPart);
  }
  const wildcard = hostPart.startsWith('*.');
  const host = wildcard ? hostPart.slice(2) : hostPart;
  if (host.includes('*')) return wrong('a wildcard is allowed only as the first label ("*.example.com").');
  if (!validHostName(host))
    return wrong(
      'a host is letters, digits and hyphens in labels separated by dots (e.g. registry.npmjs.org), or an IPv4 address.',
    );
  if (wildcard && (IPV4.test(host) || !host.includes('.')))
    return wrong('a wildcard needs a domain of at least two labels after "*." (e.g. "*.example.com").');
  return { ok: true, pattern: { host, wildcard, port } };
}

/** A list as typed, each entry checked; the first wrong one is named. Duplicates are kept once. */
export function parseHostPatterns(
  texts: readonly string[],
): { readonly ok: true; readonly patterns: string[] } | { readonly ok: false; readonly message: string } {
  const patterns: string[] = [];
  for (const text of texts) {
    const parsed = parseHostPattern(text);
    if (!parsed.ok) return parsed;
    const normal = formatHostPattern(parsed.pattern);
    if (!patterns.includes(normal)) patterns.push(normal);
  }
  return { ok: true, patterns };
}

export function formatHostPattern(pattern: HostPattern): string {
  return `${pattern.wildcard ? '*.' : ''}${pattern.host}${pattern.port === null ? '' : `:${pattern.port}`}`;
}

/** Whether `host:port` is on the list (patterns as stored; an unreadable entry allows nothing). */
export function hostAllowed(patterns: readonly string[], host: string, port: number): boolean {
  const wanted = host.toLowerCase().replace(/\.$/, '');
  return patterns.some((text) => {
    const parsed = parseHostPattern(text);
    if (!parsed.ok) return false;
    const { pattern } = parsed;
    if (pattern.port !== null && pattern.port !== port) return false;
    return pattern.wildcard ? wanted.endsWith(`.${pattern.host}`) : wanted === pattern.host;
  });
}
