import type { Session } from 'electron';
import { isAppUrl } from '../host/transports/ipc-transport';

/**
 * Every permission a page can ask for (camera, microphone, notifications, geolocation, …) is denied,
 * except writing to the clipboard from the app's own page, which its copy buttons need.
 */
const GRANTED_TO_APP = new Set(['clipboard-sanitized-write']);

export function decidePermission(permission: string, requestingUrl: string, appUrl: string): boolean {
  return GRANTED_TO_APP.has(permission) && isAppUrl(requestingUrl, appUrl);
}

export function denyPermissionsByDefault(
  session: Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler'>,
  appUrl: string,
): void {
  session.setPermissionRequestHandler((contents, permission, callback, details) => {
    callback(decidePermission(permission, details.requestingUrl || contents.getURL(), appUrl));
  });
  // A check carries only an origin unless a frame URL is known; an origin alone never matches a file:// app.
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) =>
    decidePermission(permission, details.requestingUrl ?? requestingOrigin, appUrl),
  );
}
