import { z } from 'zod';
import { wellFormedString } from './well-formed-string';

/** The WebSocket wire protocol (also the remote-host protocol). See ARCHITECTURE.md §3. */
export const PROTOCOL_VERSION = 1;
export const PROTOCOL_MIN = 1;

export const helloMessage = z.strictObject({
  hello: z.strictObject({
    token: wellFormedString().min(1).max(512),
    protocol: z.strictObject({ min: z.number().int().min(0), max: z.number().int().min(0) }),
  }),
});

export const requestMessage = z.strictObject({
  id: z.union([wellFormedString().min(1).max(128), z.number().int()]),
  op: wellFormedString().min(1).max(100),
  input: z.unknown(),
});

export type HelloMessage = z.infer<typeof helloMessage>;
export type RequestMessage = z.infer<typeof requestMessage>;

export interface WelcomeMessage {
  readonly welcome: { readonly protocol: number; readonly hostEpoch: string };
}

/** Close codes the host uses when it refuses a socket. */
export const CLOSE_CODES = {
  badHandshake: 4000,
  badToken: 4001,
  protocolUnsupported: 4002,
  handshakeTimeout: 4003,
  hostClosing: 4004,
} as const;

/** Picks the highest version both sides speak, or null. */
export function negotiateProtocol(min: number, max: number): number | null {
  const high = Math.min(max, PROTOCOL_VERSION);
  return high >= Math.max(min, PROTOCOL_MIN) ? high : null;
}
