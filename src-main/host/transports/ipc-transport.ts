import { IPC_CHANNELS } from '../../../src-shared/bridge';
import { z } from 'zod';
import { fail, type Outcome } from '../../../src-shared/errors';
import type { ChangeEvent } from '../../../src-shared/events';
import type { Logger } from '../../runtime/ports/ports';
import type { Host } from '../create-host';

/**
 * The desktop transport: the renderer's `window.cairn` (src-preload) calls the host over Electron
 * IPC. Written against the few members of ipcMain and webContents it uses, so it has no Electron
 * import, runs in plain Node, and is tested there; src-main/electron/ passes in the real objects.
 */

/** Requests `{ op, input }` → an Outcome (src-shared's IPC_CHANNELS, shared with the preload). */
export const IPC_INVOKE_CHANNEL = IPC_CHANNELS.invoke;
/** Change events pushed to the window. */
export const IPC_EVENT_CHANNEL = IPC_CHANNELS.event;

/** The frame a request came from (Electron's WebFrameMain): `parent` is null for a top-level frame. */
export interface IpcSenderFrame {
  readonly url: string;
  readonly parent: unknown;
}

/** What an `ipcMain.handle` listener receives first (Electron's IpcMainInvokeEvent). */
export interface IpcInvokeEvent {
  readonly sender: { readonly id: number };
  /** Null when the frame navigated away or was destroyed before the request was handled. */
  readonly senderFrame: IpcSenderFrame | null;
}

export type IpcInvokeListener = (event: IpcInvokeEvent, ...args: unknown[]) => Promise<unknown>;

/** The part of Electron's `ipcMain` the transport uses. */
export interface IpcMainLike {
  handle(channel: string, listener: IpcInvokeListener): void;
  removeHandler(channel: string): void;
}

/** The part of a window's `webContents` events are sent to. */
export interface IpcEventTarget {
  send(channel: string, payload: unknown): void;
  isDestroyed(): boolean;
}

export interface IpcTransportOptions {
  readonly host: Pick<Host, 'dispatch' | 'subscribe'>;
  readonly ipcMain: IpcMainLike;
  /**
   * The renderer's own address: the file:// URL of out/renderer/index.html, or the dev server's
   * http URL. Requests from any other page are refused.
   */
  readonly appUrl: string;
  readonly logger: Logger;
}

export interface IpcTransport {
  /** Forwards every change event to this window until the returned function is called. */
  attachWindow(target: IpcEventTarget): () => void;
  /** Stops answering requests and forwarding events. */
  close(): void;
}

const invokeRequest = z.strictObject({
  op: z.string().min(1).max(100),
  input: z.unknown().optional(),
});

/**
 * Whether `url` is a page of the app at `appUrl`: the same file (any query or fragment) for a
 * file:// app, the same origin for a dev server. Anything unparsable is not.
 */
export function isAppUrl(url: string, appUrl: string): boolean {
  const page = parseUrl(url);
  const app = parseUrl(appUrl);
  if (page === null || app === null) return false;
  if (app.protocol === 'file:') {
    return page.protocol === 'file:' && page.host === app.host && page.pathname === app.pathname;
  }
  if (app.protocol === 'http:' || app.protocol === 'https:') return page.origin === app.origin;
  return false;
}

/** Why a request's sender is refused, or null when it is the app's own top-level page. */
export function senderProblem(event: IpcInvokeEvent, appUrl: string): string | null {
  const frame = event.senderFrame;
  if (frame === null) return 'The page that sent this request is gone.';
  if (frame.parent !== null) return 'Only the Cairn window itself may call the host, not a frame inside it.';
  if (!isAppUrl(frame.url, appUrl)) return 'Only the Cairn window itself may call the host.';
  return null;
}

export function startIpcTransport(options: IpcTransportOptions): IpcTransport {
  const { host, ipcMain, appUrl, logger } = options;
  const detachers = new Set<() => void>();
  let closed = false;

  ipcMain.handle(IPC_INVOKE_CHANNEL, async (event, payload): Promise<Outcome<unknown>> => {
    const problem = senderProblem(event, appUrl);
    if (problem !== null) {
      logger.warn('Refused an IPC request from an unexpected sender', {
        url: event.senderFrame?.url.slice(0, 200) ?? null,
      });
      return fail('invalid_input', problem);
    }
    const request = invokeRequest.safeParse(payload);
    if (!request.success) return fail('invalid_input', 'A request is { op, input } with op an operation name.');
    const { op, input } = request.data;
    try {
      return await host.dispatch(op, input, { transport: 'ipc', connectionId: `ipc-${event.sender.id}` });
    } catch (error) {
      logger.error('Dispatch failed', { op, error: String(error) });
      return fail('internal_failure', 'Something went wrong inside Cairn. The details are in the host log.');
    }
  });

  return {
    attachWindow(target) {
      if (closed) return () => {};
      const unsubscribe = host.subscribe((event: ChangeEvent) => {
        if (target.isDestroyed()) return detach();
        try {
          target.send(IPC_EVENT_CHANNEL, event);
        } catch (error) {
          // The window went away between the check and the send; it resyncs with queries if it returns.
          logger.warn('Could not send an event to the window', { error: String(error) });
        }
      });
      const detach = () => {
        if (!detachers.delete(detach)) return;
        unsubscribe();
      };
      detachers.add(detach);
      return detach;
    },
    close() {
      if (closed) return;
      closed = true;
      ipcMain.removeHandler(IPC_INVOKE_CHANNEL);
      for (const detach of [...detachers]) detach();
    },
  };
}

function parseUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}
