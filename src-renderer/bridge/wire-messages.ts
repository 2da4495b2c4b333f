import { z } from 'zod';
import type { OperationError } from '../../src-shared/errors';
import { isErrorCode } from '../../src-shared/errors';
import type { ChangeEvent } from '../../src-shared/events';

/** Decoders for what the host sends over the WebSocket (ARCHITECTURE.md §3). */

const welcomeFrame = z.object({
  welcome: z.object({ protocol: z.number().int(), hostEpoch: z.string().min(1) }),
});

const responseFrame = z.object({
  id: z.union([z.number(), z.string(), z.null()]),
  ok: z.boolean(),
  result: z.unknown().optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});

const eventFrame = z.object({
  event: z.looseObject({ seq: z.number().int(), hostEpoch: z.string(), kind: z.string() }),
});

export type HostFrame =
  | { readonly type: 'welcome'; readonly protocol: number; readonly hostEpoch: string }
  | { readonly type: 'response'; readonly id: number | string | null; readonly ok: true; readonly result: unknown }
  | { readonly type: 'response'; readonly id: number | string | null; readonly ok: false; readonly error: OperationError }
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
  const event = eventFrame.safeParse(parsed);
  if (event.success) {
    // The envelope is checked; the body's fields follow the contract in src-shared/events.ts.
    return { type: 'event', event: event.data.event as unknown as ChangeEvent };
  }
  const response = responseFrame.safeParse(parsed);
  if (response.success) {
    const { id, ok, result, error } = response.data;
    if (ok) return { type: 'response', id, ok: true, result };
    return { type: 'response', id, ok: false, error: toOperationError(error) };
  }
  const welcome = welcomeFrame.safeParse(parsed);
  if (welcome.success) return { type: 'welcome', ...welcome.data.welcome };
  return { type: 'ignored' };
}

function toOperationError(error: { code: string; message: string } | undefined): OperationError {
  if (error === undefined) return { code: 'internal_failure', message: 'Cairn answered with an error it did not describe.' };
  return { code: isErrorCode(error.code) ? error.code : 'internal_failure', message: error.message };
}
