import { describe, expect, it } from 'vitest';
import { hostAllowed, parseHostPattern, parseHostPatterns } from './host-patterns';

describe('host patterns', () => {
  it('reads exact hosts, wildcards, IPv4 addresses and ports, lower-cased', () => {
    expect(parseHostPattern(' Registry.NPMJS.org ')).toEqual({
      ok: true,
      pattern: { host: 'registry.npmjs.org', wildcard: false, port: null },
    });
    expect(parseHostPattern('*.example.com:8443')).toEqual({
      ok: true,
      pattern: { host: 'example.com', wildcard: true, port: 8443 },
    });
    expect(parseHostPattern('localhost')).toEqual({
      ok: true,
      pattern: { host: 'localhost', wildcard: false, port: null },
    });
    expect(parseHostPattern('10.0.0.1:80')).toEqual({
      ok: true,
      pattern: { host: '10.0.0.1', wildcard: false, port: 80 },
    });
  });

  it.each([
    ['', 'empty'],
    ['https://registry.npmjs.org', 'without a scheme'],
    ['example.com/path', 'without a path'],
    ['*', 'first label'],
    ['*.com', 'at least two labels'],
    ['a.*.example.com', 'first label'],
    ['exa mple.com', 'letters, digits'],
    ['-bad.example.com', 'letters, digits'],
    ['example.com:0', 'port'],
    ['example.com:70000', 'port'],
    ['example.com:http', 'port'],
    ['1.2.3', 'letters, digits'],
    ['999.1.1.1', 'letters, digits'],
    ['[::1]:80', 'IPv6'],
    ['*.10.0.0.1', 'at least two labels'],
  ])('refuses %j, saying why and naming it', (text, why) => {
    const parsed = parseHostPattern(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.message).toContain(`"${text.trim()}"`);
      expect(parsed.message).toContain(why);
    }
  });

  it('checks a list, naming the first wrong entry, and keeps each pattern once', () => {
    expect(parseHostPatterns(['a.example.com', 'A.example.com', '*.b.org:443'])).toEqual({
      ok: true,
      patterns: ['a.example.com', '*.b.org:443'],
    });
    expect(parseHostPatterns(['a.example.com', 'bad host', 'also bad'])).toEqual({
      ok: false,
      message: expect.stringContaining('"bad host"'),
    });
  });

  it('allows a host on the list: exact, subdomains of a wildcard, the port when one is given', () => {
    const list = ['registry.npmjs.org', '*.example.com', 'api.test:8080'];
    expect(hostAllowed(list, 'registry.npmjs.org', 443)).toBe(true);
    expect(hostAllowed(list, 'REGISTRY.npmjs.org.', 80)).toBe(true);
    expect(hostAllowed(list, 'evil-registry.npmjs.org', 443)).toBe(false);
    expect(hostAllowed(list, 'npmjs.org', 443)).toBe(false);
    expect(hostAllowed(list, 'a.example.com', 443)).toBe(true);
    expect(hostAllowed(list, 'b.a.example.com', 443)).toBe(true);
    expect(hostAllowed(list, 'example.com', 443)).toBe(false);
    expect(hostAllowed(list, 'notexample.com', 443)).toBe(false);
    expect(hostAllowed(list, 'api.test', 8080)).toBe(true);
    expect(hostAllowed(list, 'api.test', 443)).toBe(false);
    expect(hostAllowed([], 'registry.npmjs.org', 443)).toBe(false);
  });
});
