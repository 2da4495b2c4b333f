import type { Session } from 'electron';

/**
 * The Content-Security-Policy every response to the window carries (the built index.html carries
 * the same policy in a meta tag, which is what applies to file:// pages). Only the app's own
 * scripts run; nothing is fetched from or posted to anywhere else.
 */
export function buildContentSecurityPolicy(devServerUrl: string | null = null): string {
  // The dev server injects styles and the React refresh preamble inline and talks over a WebSocket.
  const dev = devServerUrl === null ? null : new URL(devServerUrl);
  const directives: [string, ...string[]][] = [
    ['default-src', "'none'"],
    ['script-src', "'self'", ...(dev === null ? [] : ["'unsafe-inline'"])],
    ['style-src', "'self'", ...(dev === null ? [] : ["'unsafe-inline'"])],
    ['img-src', "'self'", 'data:', 'blob:'],
    ['font-src', "'self'", 'data:'],
    ['connect-src', "'self'", ...(dev === null ? [] : [`ws://${dev.host}`])],
    ['object-src', "'none'"],
    ['base-uri', "'none'"],
    ['form-action', "'none'"],
    ['frame-src', "'none'"],
    ['frame-ancestors', "'none'"],
  ];
  return directives.map((parts) => parts.join(' ')).join('; ');
}

export type ResponseHeaders = Record<string, string | string[]>;

/** The response headers with any policy the server sent replaced by ours. */
export function withContentSecurityPolicy(headers: ResponseHeaders | undefined, policy: string): ResponseHeaders {
  const kept = Object.entries(headers ?? {}).filter(([name]) => name.toLowerCase() !== 'content-security-policy');
  return { ...Object.fromEntries(kept), 'Content-Security-Policy': [policy] };
}

export function enforceContentSecurityPolicy(session: Pick<Session, 'webRequest'>, policy: string): void {
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: withContentSecurityPolicy(details.responseHeaders, policy) });
  });
}
