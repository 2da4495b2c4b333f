import type { DesktopNote } from './notifier';

/**
 * The page's service worker (public/sw.js), where the browser allows one: a secure context whose
 * certificate it trusts (a `tailscale cert` address, or this machine's loopback address). It exists
 * for notifications — a phone's browser shows them only through a service worker. On a self-signed
 * certificate the browser refuses to register it; the page then works as before, without it.
 */

/** What is used of an active worker's registration. */
export interface WorkerRegistration {
  showNotification(title: string, options: { body: string; tag: string; data: { noteId: string } }): Promise<void>;
}

interface ServiceWorkerContainerLike {
  register(url: string): Promise<unknown>;
  readonly ready: Promise<WorkerRegistration>;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}

interface WorkerGlobals {
  readonly isSecureContext: boolean;
  readonly navigator: { readonly serviceWorker?: ServiceWorkerContainerLike };
  focus(): void;
}

/** Where the worker's script is served, beside index.html. */
export const WORKER_URL = './sw.js';
/** The tag every note carries: a newer note takes the place of an older one still showing. */
const NOTE_TAG = 'cairn-waiting';
/** How many notes' click actions are remembered (an older note, tapped much later, only brings the page forward). */
const REMEMBERED_CLICKS = 50;

/**
 * Registers the worker where the browser allows it and, once it is active, hands `onReady` a way to
 * show a note through it (a tap on the note comes back as a message, and runs the note's onClick).
 * A refusal (a self-signed certificate, no support) leaves the page as it is.
 */
export async function registerPageWorker(
  window: WorkerGlobals,
  onReady: (show: (note: DesktopNote) => void) => void,
): Promise<void> {
  const container = window.isSecureContext ? window.navigator.serviceWorker : undefined;
  if (container === undefined) return;
  const clicks = new Map<string, () => void>();
  container.addEventListener('message', (event) => {
    const noteId = noteTapped(event.data);
    if (noteId === null) return;
    const onClick = clicks.get(noteId);
    clicks.delete(noteId);
    window.focus();
    onClick?.();
  });
  try {
    await container.register(WORKER_URL);
  } catch {
    return;
  }
  const registration = await container.ready;
  let notes = 0;
  onReady((note) => {
    notes += 1;
    const noteId = `note-${notes}`;
    if (note.onClick !== undefined) clicks.set(noteId, note.onClick);
    if (clicks.size > REMEMBERED_CLICKS) clicks.delete(clicks.keys().next().value ?? '');
    registration
      .showNotification(note.title, { body: note.body, tag: NOTE_TAG, data: { noteId } })
      .catch(() => undefined);
  });
}

/** The note id of the worker's "a note was tapped" message; null for anything else. */
function noteTapped(data: unknown): string | null {
  if (typeof data !== 'object' || data === null) return null;
  const message = data as { kind?: unknown; noteId?: unknown };
  return message.kind === 'cairn.notificationClick' && typeof message.noteId === 'string' ? message.noteId : null;
}
