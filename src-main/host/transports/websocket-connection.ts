import { timingSafeEqual } from 'node:crypto';
import type { RawData, WebSocket } from 'ws';
import { CLOSE_CODES, negotiateProtocol } from '../../../src-shared/protocol';
import type { DeviceIdentity } from '../../../src-shared/device-model';
import { helloMessage, pairMessage, requestMessage } from '../../../src-shared/protocol-messages';
import type { Logger } from '../../runtime/ports/ports';
import type { Host } from '../create-host';
import type { HandshakeLimiter } from './handshake-limiter';

/** What every socket of one listener shares. */
export interface WebSocketConnectionContext {
  readonly host: Host;
  readonly token: string;
  readonly logger: Logger;
  readonly helloTimeoutMs?: number;
  readonly limiter: HandshakeLimiter;
  /** Sockets that have not said hello yet, oldest first, each with how to stop waiting for it. */
  readonly unauthenticated: Map<WebSocket, () => void>;
}

const MAX_BUFFERED_BYTES = 32 * 1024 * 1024;
/** How long a closed socket's other side has to answer the close before the socket is dropped. */
const CLOSE_GRACE_MS = 1000;

/** Closes a socket, and drops it if the other side does not answer the close in time. */
export function closeFirmly(ws: WebSocket, code: number, reason: string) {
  ws.close(code, reason);
  const drop = setTimeout(() => ws.terminate(), CLOSE_GRACE_MS);
  ws.once('close', () => clearTimeout(drop));
}

/**
 * One accepted socket's life in the protocol of ARCHITECTURE.md §3: a hello (the token or a paired
 * device's credential, and a protocol range) or a pairing code first, within the hello timeout and
 * slowed when wrong; then requests dispatched to the host and its events pushed.
 */
export function serveConnection(
  context: WebSocketConnectionContext,
  ws: WebSocket,
  connectionId: string,
  address: string,
) {
  const { host, logger, limiter, unauthenticated } = context;
  let unsubscribe: (() => void) | null = null;
  let device: DeviceIdentity | undefined;
  let releaseDevice: (() => void) | null = null;
  let refused = false;
  const refuse = (code: number, reason: string) => {
    if (refused) return;
    refused = true;
    const delayMs = limiter.recordFailure();
    if (limiter.recentFailures % 100 === 1)
      logger.warn('A WebSocket handshake failed', { address, reason, recentFailures: limiter.recentFailures });
    const answer = setTimeout(() => closeFirmly(ws, code, reason), delayMs);
    ws.once('close', () => clearTimeout(answer));
  };
  const helloTimer = setTimeout(() => {
    refused = true;
    closeFirmly(ws, CLOSE_CODES.handshakeTimeout, 'No hello received in time');
  }, context.helloTimeoutMs ?? 10_000);
  unauthenticated.set(ws, () => {
    refused = true;
    clearTimeout(helloTimer);
  });
  // Too many sockets waiting to say hello: the oldest makes room, so a flood never crowds out the next client.
  while (unauthenticated.size > limiter.maxUnauthenticated) {
    const [oldest, giveUp] = unauthenticated.entries().next().value ?? [];
    if (oldest === undefined || giveUp === undefined) break;
    unauthenticated.delete(oldest);
    giveUp();
    closeFirmly(oldest, CLOSE_CODES.handshakeTimeout, 'Too many connections waiting to say hello');
  }
  const send = (message: unknown) => {
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      // A client this far behind resyncs with queries after reconnecting; better than unbounded memory.
      ws.close(1013, 'Client too slow; reconnect and resync');
      return;
    }
    ws.send(JSON.stringify(message));
  };

  ws.on('message', (data: RawData, isBinary) => {
    const parsed = isBinary ? undefined : parseJson(data.toString());
    if (unsubscribe === null) {
      if (refused) return;
      const pair = pairMessage.safeParse(parsed);
      if (pair.success) return pairDevice(pair.data.pair.code, pair.data.pair.deviceName);
      const hello = helloMessage.safeParse(parsed);
      if (!hello.success) return refuse(CLOSE_CODES.badHandshake, 'Expected a hello message');
      const token = hello.data.hello.token;
      if (!tokenMatches(token, context.token)) {
        device = host.devices.admit(token, address) ?? undefined;
        if (device === undefined) return refuse(CLOSE_CODES.badToken, 'Bad token');
      }
      const protocol = negotiateProtocol(hello.data.hello.protocol.min, hello.data.hello.protocol.max);
      if (protocol === null) return ws.close(CLOSE_CODES.protocolUnsupported, 'No protocol version in common');
      clearTimeout(helloTimer);
      unauthenticated.delete(ws);
      // A revoked device's sockets close at once, and its credential is refused from then on.
      if (device !== undefined)
        releaseDevice = host.devices.track(device.deviceId, () =>
          closeFirmly(ws, CLOSE_CODES.deviceRevoked, 'This device was signed out'),
        );
      send({ welcome: { protocol, hostEpoch: host.info.hostEpoch, ...(device === undefined ? {} : { device }) } });
      unsubscribe = host.subscribe((event) => send({ event }));
      return;
    }
    const request = requestMessage.safeParse(parsed);
    if (!request.success) {
      // Echo a usable id even when the rest is wrong, so the client can match the answer.
      send({
        id: echoableId(parsed),
        ok: false,
        error: { code: 'invalid_input', message: 'A request is {"id","op","input"} as JSON.' },
      });
      return;
    }
    const { id, op, input } = request.data;
    host
      .dispatch(op, input, { transport: 'websocket', connectionId, ...(device === undefined ? {} : { device }) })
      .then((outcome) => send({ id, ...outcome }))
      .catch((error: unknown) => {
        logger.error('Dispatch failed', { op, error: String(error) });
        send({ id, ok: false, error: { code: 'internal_failure', message: 'Something went wrong inside Cairn.' } });
      });
  });
  ws.on('close', () => {
    clearTimeout(helloTimer);
    unauthenticated.delete(ws);
    unsubscribe?.();
    releaseDevice?.();
  });

  /**
   * A device proves a pairing code instead of saying hello, then waits (without the hello timeout)
   * for the desktop to confirm; it leaves with its credential, or the socket closes saying why. A
   * wrong code is a failed handshake like a wrong token: slowed, never locking anyone out.
   */
  function pairDevice(code: string, deviceName: string) {
    refused = true; // nothing more is read from this socket
    clearTimeout(helloTimer);
    unauthenticated.delete(ws);
    const request = host.devices.requestPairing(code, deviceName, address);
    ws.once('close', request.withdraw);
    void request.outcome.then((outcome) => {
      if (outcome.ok) {
        send({ paired: { credential: outcome.credential, device: outcome.device } });
        closeFirmly(ws, 1000, 'Paired');
        return;
      }
      const reason = PAIRING_REFUSALS[outcome.reason];
      if (outcome.reason !== 'wrong_code') return closeFirmly(ws, CLOSE_CODES.pairingRefused, reason);
      const delayMs = limiter.recordFailure();
      const answer = setTimeout(() => closeFirmly(ws, CLOSE_CODES.pairingRefused, reason), delayMs);
      ws.once('close', () => clearTimeout(answer));
    });
  }
  ws.on('error', (error) => logger.warn('WebSocket error', { connectionId, error: String(error) }));
}

/** Close reasons a pairing device shows (a close reason is at most 123 bytes). */
const PAIRING_REFUSALS = {
  wrong_code: 'That code is not the one on show.',
  expired: 'That code is no longer valid. Show a new one on the desktop.',
  declined: 'The desktop did not pair this device.',
  busy: 'Another device is being paired. Try again in a moment.',
} as const;

function echoableId(parsed: unknown): string | number | null {
  if (typeof parsed !== 'object' || parsed === null || !('id' in parsed)) return null;
  const id = requestMessage.shape.id.safeParse(parsed.id);
  return id.success ? id.data : null;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function tokenMatches(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
