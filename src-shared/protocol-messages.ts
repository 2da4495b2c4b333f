import { z } from 'zod';
import { wellFormedString } from './well-formed-string';

/** What a client sends over the wire protocol (protocol.ts), as the host decodes it: kept apart so clients need no zod. */

export const helloMessage = z.strictObject({
  hello: z.strictObject({
    token: wellFormedString().min(1).max(512),
    protocol: z.strictObject({ min: z.number().int().min(0), max: z.number().int().min(0) }),
  }),
});

/** Instead of a hello: a device proves a pairing code and names itself; the desktop confirms. */
export const pairMessage = z.strictObject({
  pair: z.strictObject({
    code: wellFormedString().min(1).max(32),
    deviceName: wellFormedString().trim().min(1).max(60),
  }),
});

export const requestMessage = z.strictObject({
  id: z.union([wellFormedString().min(1).max(128), z.number().int()]),
  op: wellFormedString().min(1).max(100),
  input: z.unknown(),
});

export type HelloMessage = z.infer<typeof helloMessage>;
export type PairMessage = z.infer<typeof pairMessage>;
export type RequestMessage = z.infer<typeof requestMessage>;

/**
 * The hello on the host's local socket (`host.sock` in the data directory): no token, since only the
 * user who owns the socket file (mode 0600) can connect to it.
 */
export const localHelloMessage = z.strictObject({
  hello: z.strictObject({
    protocol: z.strictObject({ min: z.number().int().min(0), max: z.number().int().min(0) }),
  }),
});
