/**
 * The open session lives in the URL fragment (`#session=<id>`), so a reload reopens it. Only the
 * fragment is touched; the history is replaced, not pushed, so Back leaves the app as expected.
 */
export interface AppLocation {
  readSessionId(): string | null;
  writeSessionId(sessionId: string | null): void;
}

export function browserLocation(win: Window): AppLocation {
  const params = () => new URLSearchParams(win.location.hash.replace(/^#/, ''));
  return {
    readSessionId() {
      const value = params().get('session');
      return value === null || value === '' ? null : value;
    },
    writeSessionId(sessionId) {
      const next = params();
      if (sessionId === null) next.delete('session');
      else next.set('session', sessionId);
      const fragment = next.toString();
      const { pathname, search } = win.location;
      win.history.replaceState(win.history.state, '', `${pathname}${search}${fragment === '' ? '' : `#${fragment}`}`);
    },
  };
}

/** For tests and for places with no address bar. */
export function memoryLocation(initial: string | null = null): AppLocation {
  let current = initial;
  return {
    readSessionId: () => current,
    writeSessionId: (sessionId) => {
      current = sessionId;
    },
  };
}
