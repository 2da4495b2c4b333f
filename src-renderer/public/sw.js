/*
 * Cairn's service worker, registered only where the browser allows one (a secure context with a
 * trusted certificate, or this machine's own loopback address). It caches nothing — the page needs its
 * host anyway — and handles one thing: notifications. A phone's browser shows notifications only
 * through a service worker; a tap on one brings the page forward and opens what the note is about.
 */
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const noteId =
    event.notification.data && typeof event.notification.data.noteId === 'string'
      ? event.notification.data.noteId
      : null;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((pages) => {
      const page = pages[0];
      if (page === undefined) return self.clients.openWindow('./');
      if (noteId !== null) page.postMessage({ kind: 'cairn.notificationClick', noteId });
      return page.focus();
    }),
  );
});
