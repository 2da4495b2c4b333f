import WebSocket from 'ws';
import type { Outcome } from '../../src-shared/errors';
import type { ChangeEvent } from '../../src-shared/events';
import type { OperationInput, OperationName, OperationResult } from '../../src-shared/operations';
import { connectProtocolClient, type ProtocolClient } from '../../src-main/testing/protocol-client';

/**
 * A protocol client for a host that may be killed at any moment: a request whose answer never comes
 * (the host died, or hangs) resolves as unanswered instead of hanging, and waits end when the socket
 * closes.
 */
export interface SoakClient {
  readonly events: readonly ChangeEvent[];
  /** The answer, or `null` when the socket closed first or no answer came in time (not acknowledged). */
  request<N extends OperationName>(op: N, input: OperationInput<N>): Promise<Outcome<OperationResult<N>> | null>;
  /** Like `request`, but an error answer or a closed socket throws (for the checks after a restart). */
  call<N extends OperationName>(op: N, input: OperationInput<N>): Promise<OperationResult<N>>;
  /** Resolves with the first event (already received or arriving) that matches, or null on close or timeout. */
  nextEvent(matches: (event: ChangeEvent) => boolean, timeoutMs: number): Promise<ChangeEvent | null>;
  /** Resolves after `ms`, or earlier when the socket closes; true when it is still open. */
  pause(ms: number): Promise<boolean>;
  isOpen(): boolean;
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/** A live host answers in milliseconds; this only bounds a host that hangs. */
const ANSWER_TIMEOUT_MS = 20_000;

export async function connectSoakClient(wsUrl: string, token: string): Promise<SoakClient> {
  const inner: ProtocolClient = await connectProtocolClient(wsUrl, { token });
  const closed = new Promise<void>((resolve) => {
    if (inner.socket.readyState === WebSocket.CLOSED) resolve();
    else inner.socket.once('close', () => resolve());
  });
  const isOpen = () => inner.socket.readyState === WebSocket.OPEN;
  const untilClosed = closed.then(() => null);

  const client: SoakClient = {
    events: inner.events,
    closed,
    isOpen,
    async request(op, input) {
      if (!isOpen()) return null;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ANSWER_TIMEOUT_MS)));
      const outcome = await Promise.race([inner.invoke(op, input).catch(() => null), untilClosed, late]);
      clearTimeout(timer);
      return outcome;
    },
    async call(op, input) {
      const outcome = await client.request(op, input);
      if (outcome === null)
        throw new Error(`${op}: the host closed the connection or did not answer within ${ANSWER_TIMEOUT_MS / 1000} s`);
      if (!outcome.ok) throw new Error(`${op} failed: ${outcome.error.code}: ${outcome.error.message}`);
      return outcome.result;
    },
    nextEvent(matches, timeoutMs) {
      const seen = inner.events.find(matches);
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve) => {
        const onMessage = () => {
          const found = inner.events.find(matches);
          if (found !== undefined) finish(found);
        };
        const timer = setTimeout(() => finish(null), timeoutMs);
        void closed.then(() => finish(null));
        // The inner client pushes events in its own 'message' listener, registered before this one.
        inner.socket.on('message', onMessage);
        function finish(result: ChangeEvent | null) {
          clearTimeout(timer);
          inner.socket.off('message', onMessage);
          resolve(result);
        }
      });
    },
    pause(ms) {
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(isOpen()), ms);
        void closed.then(() => {
          clearTimeout(timer);
          resolve(false);
        });
      });
    },
    close: () => inner.close(),
  };
  return client;
}
