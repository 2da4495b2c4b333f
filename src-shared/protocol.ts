/** The WebSocket wire protocol (also the remote-host protocol). See ARCHITECTURE.md §3; the host's decoders of what clients send are in protocol-messages.ts. */
/**
 * The version this host speaks, and the oldest it still accepts (a client says which it speaks in its hello).
 * Version 2: a denial is sent as `{ action: 'deny', reason? }`; version 1's `{ action: 'accept', decision: 'deny' }`
 * and `{ action: 'accept', network: 'deny' }` are still accepted, read as a denial (src-shared/interaction-model.ts).
 */
export const PROTOCOL_VERSION = 2;
export const PROTOCOL_MIN = 1;

export interface WelcomeMessage {
  /** `device`: the paired device this socket speaks for (absent for the desktop's token). */
  readonly welcome: {
    readonly protocol: number;
    readonly hostEpoch: string;
    readonly device?: { readonly deviceId: string; readonly name: string };
  };
}

/** Close codes the host uses when it refuses a socket. */
export const CLOSE_CODES = {
  badHandshake: 4000,
  badToken: 4001,
  protocolUnsupported: 4002,
  handshakeTimeout: 4003,
  hostClosing: 4004,
  /** The device's credential was revoked on the host: the client forgets it and says it was signed out. */
  deviceRevoked: 4005,
  /** A pairing attempt ended without a credential (wrong or expired code, or the desktop said no). */
  pairingRefused: 4006,
} as const;

/** Picks the highest version both sides speak, or null. */
export function negotiateProtocol(min: number, max: number): number | null {
  const high = Math.min(max, PROTOCOL_VERSION);
  return high >= Math.max(min, PROTOCOL_MIN) ? high : null;
}

/** The host's local socket in its data directory (mode 0600): the same protocol, one JSON message a line. */
export const LOCAL_SOCKET_NAME = 'host.sock';
