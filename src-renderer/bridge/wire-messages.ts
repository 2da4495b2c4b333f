import type { OperationError } from '../../src-shared/errors';
import { isErrorCode } from '../../src-shared/errors';
import type { ChangeEvent } from '../../src-shared/events';

/** Decoders for what the host sends over the WebSocket (ARCHITECTURE.md §3). */

export type HostFrame =
  | { readonly type: 'welcome'; readonly protocol: number; readonly hostEpoch: string }
  | { readonly type: 'response'; readonly id: number | string | null; readonly ok: true; readonly result: unknown }
  | {
      readonly type: 'response';
      readonly id: number | string | null;
      readonly ok: false;
      readonly error: OperationError;
    }
  | { readonly type: 'event'; readonly event: ChangeEvent }
  | { readonly type: 'ignored' };

/**
 * Parses one text frame; anything malformed is ignored. Every well-formed event is passed on, even
 * of a kind this renderer does not handle (yet): its `seq` still counts, or it would look like a gap.
 */
export function decodeHostFrame(text: string): HostFrame {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { type: 'ignored' };
  }
  if (!isRecord(parsed)) return { type: 'ignored' };
  const { event, welcome } = parsed;
  if (
    isRecord(event) &&
    isInteger(event.seq) &&
    typeof event.hostEpoch === 'string' &&
    typeof event.kind === 'string'
  ) {
    // The envelope is checked; the body's fields follow the contract in src-shared/events.ts.
    return { type: 'event', event: event as unknown as ChangeEvent };
  }
  const { id, ok, result, error } = parsed;
  if (
    (typeof id === 'number' || typeof id === 'string' || id === null) &&
    typeof ok === 'boolean' &&
    (error === undefined || isErrorShape(error))
  ) {
    if (ok) return { type: 'response', id, ok: true, result };
    return { type: 'response', id, ok: false, error: toOperationError(error) };
  }
  if (
    isRecord(welcome) &&
    isInteger(welcome.protocol) &&
    typeof welcome.hostEpoch === 'string' &&
    welcome.hostEpoch !== ''
  ) {
    return { type: 'welcome', protocol: welcome.protocol, hostEpoch: welcome.hostEpoch };
  }
  return { type: 'ignored' };
}

// Plain checks rather than a schema library: this module is on the renderer's first load.
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isInteger(value: unknown): value is number {
  return Number.isInteger(value);
}

function isErrorShape(value: unknown): value is { code: string; message: string } {
  return isRecord(value) && typeof value.code === 'string' && typeof value.message === 'string';
}

function toOperationError(error: { code: string; message: string } | undefined): OperationError {
  if (error === undefined)
    return { code: 'internal_failure', message: 'Cairn answered with an error it did not describe.' };
  return { code: isErrorCode(error.code) ? error.code : 'internal_failure', message: error.message };
}
