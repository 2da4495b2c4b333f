import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decidePermission, denyPermissionsByDefault } from './permissions';

const APP_URL = pathToFileURL('/opt/cairn/out/renderer/index.html').href;

describe('permissions', () => {
  it('denies every sensitive permission, even to the app itself', () => {
    for (const permission of [
      'media',
      'geolocation',
      'notifications',
      'clipboard-read',
      'openExternal',
      'fullscreen',
      'midiSysex',
      'unknown',
    ]) {
      expect(decidePermission(permission, APP_URL, APP_URL)).toBe(false);
    }
  });

  it('lets only the app page write to the clipboard', () => {
    expect(decidePermission('clipboard-sanitized-write', APP_URL, APP_URL)).toBe(true);
    expect(decidePermission('clipboard-sanitized-write', 'https://example.com/', APP_URL)).toBe(false);
    expect(decidePermission('clipboard-sanitized-write', 'file:///', APP_URL)).toBe(false);
  });

  it('installs both the request and the check handler', () => {
    type RequestHandler = (
      contents: { getURL(): string },
      permission: string,
      callback: (granted: boolean) => void,
      details: { requestingUrl: string },
    ) => void;
    type CheckHandler = (
      contents: null,
      permission: string,
      origin: string,
      details: { requestingUrl?: string },
    ) => boolean;
    let request: RequestHandler | null = null;
    let check: CheckHandler | null = null;
    const session = {
      setPermissionRequestHandler: (handler: RequestHandler) => (request = handler),
      setPermissionCheckHandler: (handler: CheckHandler) => (check = handler),
    };
    denyPermissionsByDefault(session as never, APP_URL);

    const answers: boolean[] = [];
    request!({ getURL: () => APP_URL }, 'media', (granted) => answers.push(granted), { requestingUrl: APP_URL });
    request!({ getURL: () => APP_URL }, 'clipboard-sanitized-write', (granted) => answers.push(granted), {
      requestingUrl: APP_URL,
    });
    expect(answers).toEqual([false, true]);
    expect(check!(null, 'notifications', 'file:///', { requestingUrl: APP_URL })).toBe(false);
    expect(check!(null, 'clipboard-sanitized-write', 'file:///', {})).toBe(false);
  });
});
