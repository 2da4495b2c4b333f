import type { SocketFactory, SocketHandlers } from './websocket-host-link';

/** A scripted stand-in for the host's end of a WebSocket, for the link's unit tests. */
export class FakeSocket {
  readonly sent: unknown[] = [];
  closedWith: number | null = null;

  constructor(
    readonly url: string,
    private readonly handlers: SocketHandlers,
  ) {}

  open(): void {
    this.handlers.open();
  }

  welcome(hostEpoch = 'epoch-1'): void {
    this.receive({ welcome: { protocol: 1, hostEpoch } });
  }

  receive(frame: unknown): void {
    this.handlers.message(JSON.stringify(frame));
  }

  /** The host closes the socket (or the network drops it). */
  drop(code = 1006, reason = ''): void {
    this.handlers.close(code, reason);
  }

  requests(): Array<{ id: number; op: string; input: unknown }> {
    return this.sent.filter(
      (frame): frame is { id: number; op: string; input: unknown } =>
        typeof frame === 'object' && frame !== null && 'op' in frame,
    );
  }
}

export function fakeSocketFactory(): { factory: SocketFactory; sockets: FakeSocket[]; latest(): FakeSocket } {
  const sockets: FakeSocket[] = [];
  const factory: SocketFactory = (url, handlers) => {
    const socket = new FakeSocket(url, handlers);
    sockets.push(socket);
    return {
      send: (text) => socket.sent.push(JSON.parse(text) as unknown),
      close: (code) => {
        socket.closedWith = code ?? 1000;
      },
    };
  };
  return {
    factory,
    sockets,
    latest() {
      const socket = sockets.at(-1);
      if (socket === undefined) throw new Error('No socket was opened');
      return socket;
    },
  };
}
