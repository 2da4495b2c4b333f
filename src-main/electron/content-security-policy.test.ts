import { describe, expect, it } from 'vitest';
import {
  buildContentSecurityPolicy,
  enforceContentSecurityPolicy,
  withContentSecurityPolicy,
  type ResponseHeaders,
} from './content-security-policy';

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(';').map((part) => {
      const [name = '', ...values] = part.trim().split(/\s+/);
      return [name, values];
    }),
  );
}

describe('the Content-Security-Policy', () => {
  it('in production allows only the app itself: no inline or remote scripts, no remote connections', () => {
    const policy = directives(buildContentSecurityPolicy());
    expect(policy.get('default-src')).toEqual(["'none'"]);
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(policy.get('style-src')).toEqual(["'self'"]);
    expect(policy.get('connect-src')).toEqual(["'self'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'none'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(buildContentSecurityPolicy()).not.toMatch(/unsafe-eval|unsafe-inline|\*|https?:/);
  });

  it('with a dev server allows its inline preamble and its HMR socket, nothing more', () => {
    const policy = directives(buildContentSecurityPolicy('http://localhost:5173/'));
    expect(policy.get('script-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(policy.get('connect-src')).toEqual(["'self'", 'ws://localhost:5173']);
    expect(buildContentSecurityPolicy('http://localhost:5173/')).not.toContain('unsafe-eval');
  });

  it('replaces whatever policy the server sent, whatever its case, keeping other headers', () => {
    const headers = withContentSecurityPolicy(
      { 'content-security-policy': ['default-src *'], 'Content-Type': ['text/html'] },
      "default-src 'none'",
    );
    expect(headers).toEqual({ 'Content-Type': ['text/html'], 'Content-Security-Policy': ["default-src 'none'"] });
    expect(withContentSecurityPolicy(undefined, 'x')).toEqual({ 'Content-Security-Policy': ['x'] });
  });

  it('is applied to every response through onHeadersReceived', () => {
    let listener:
      | ((
          details: { responseHeaders?: ResponseHeaders },
          callback: (response: { responseHeaders?: ResponseHeaders }) => void,
        ) => void)
      | null = null;
    const session = { webRequest: { onHeadersReceived: (l: typeof listener) => (listener = l) } };
    enforceContentSecurityPolicy(session as never, "default-src 'none'");
    const answers: unknown[] = [];
    listener!({ responseHeaders: { 'Content-Security-Policy': ['default-src *'] } }, (response) =>
      answers.push(response),
    );
    expect(answers).toEqual([{ responseHeaders: { 'Content-Security-Policy': ["default-src 'none'"] } }]);
  });
});
