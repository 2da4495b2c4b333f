/**
 * The Content-Security-Policy of the app's pages: every response to the desktop window and every
 * response of the headless host carries it (the built index.html carries the same policy in a meta
 * tag, which is what applies to file:// pages). Only the app's own
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
    // The web app manifest, and the service worker that shows a phone's notifications (sw.js).
    ['manifest-src', "'self'"],
    ['worker-src', "'self'"],
    ['object-src', "'none'"],
    ['base-uri', "'none'"],
    ['form-action', "'none'"],
    ['frame-src', "'none'"],
    ['frame-ancestors', "'none'"],
  ];
  return directives.map((parts) => parts.join(' ')).join('; ');
}
