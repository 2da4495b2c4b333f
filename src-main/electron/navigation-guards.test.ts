import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { externalUrl, guardNavigation } from './navigation-guards';

const APP_URL = pathToFileURL('/opt/cairn/out/renderer/index.html').href;

describe('externalUrl', () => {
  it('passes ordinary web links, normalised', () => {
    expect(externalUrl('https://example.com/docs?q=1#top')).toBe('https://example.com/docs?q=1#top');
    expect(externalUrl('http://EXAMPLE.com')).toBe('http://example.com/');
  });

  it('refuses every other scheme', () => {
    for (const url of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/html,hi',
      'smb://server/share',
      'ms-settings:',
      'vscode://x',
      'mailto:a@b.c',
      'about:blank',
    ]) {
      expect(externalUrl(url)).toBeNull();
    }
  });

  it('refuses credentials, whitespace, control characters, empty, unparsable and overlong input', () => {
    for (const url of [
      'https://user:pw@example.com/',
      'https://user@example.com/',
      ' https://example.com/',
      'https://exa mple.com/',
      'https://example.com/\n',
      'https://example.com/\u0000',
      '',
      'https://',
      'not a url',
      `https://example.com/${'a'.repeat(3000)}`,
    ]) {
      expect(externalUrl(url)).toBeNull();
    }
  });
});

type Listener = (event: { preventDefault(): void }, url: string) => void;

function fakeContents() {
  const listeners = new Map<string, Listener>();
  let openHandler: ((details: { url: string }) => { action: string }) | null = null;
  const contents = {
    on(event: string, listener: Listener) {
      listeners.set(event, listener);
      return contents;
    },
    setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
      openHandler = handler;
    },
  };
  const fire = (event: string, url: string) => {
    let prevented = false;
    listeners.get(event)?.({ preventDefault: () => (prevented = true) }, url);
    return prevented;
  };
  return { contents, listeners, fire, open: (url: string) => openHandler!({ url }) };
}

function guarded() {
  const fake = fakeContents();
  const opened: string[] = [];
  const blocked: string[] = [];
  guardNavigation(fake.contents as never, {
    appUrl: APP_URL,
    openExternal: (url) => {
      opened.push(url);
      return Promise.resolve();
    },
    onBlocked: (what, url) => blocked.push(`${what} ${url}`),
  });
  return { ...fake, opened, blocked };
}

describe('guardNavigation', () => {
  it('lets the app navigate within itself', () => {
    const g = guarded();
    expect(g.fire('will-navigate', `${APP_URL}#/sessions`)).toBe(false);
    expect(g.opened).toEqual([]);
  });

  it('blocks navigation away, sending web links to the browser and dropping the rest', () => {
    const g = guarded();
    expect(g.fire('will-navigate', 'https://example.com/')).toBe(true);
    expect(g.fire('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(g.fire('will-redirect', 'https://evil.example/')).toBe(true);
    expect(g.opened).toEqual(['https://example.com/', 'https://evil.example/']);
    expect(g.blocked).toEqual(['navigation file:///etc/passwd']);
  });

  it('never opens a window: web links go to the browser, others nowhere', () => {
    const g = guarded();
    expect(g.open('https://example.com/a')).toEqual({ action: 'deny' });
    expect(g.open('javascript:alert(1)')).toEqual({ action: 'deny' });
    expect(g.open(APP_URL)).toEqual({ action: 'deny' });
    expect(g.opened).toEqual(['https://example.com/a']);
  });

  it('refuses to attach a webview', () => {
    const g = guarded();
    expect(g.fire('will-attach-webview', '')).toBe(true);
  });
});
