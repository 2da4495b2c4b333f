import type { Session } from 'electron';

export { buildContentSecurityPolicy } from '../../src-shared/content-security-policy';

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
