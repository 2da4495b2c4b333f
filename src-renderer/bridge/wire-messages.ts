import { z } from 'zod';
import type { OperationError } from '../../src-shared/errors';
import { isErrorCode } from '../../src-shared/errors';
import type { ChangeEvent, ChangeEventKind } from '../../src-shared/events';

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

const KNOWN_EVENT_KINDS: ReadonlySet<string> = new Set<ChangeEventKind>([
  'session.changed',
  'session.removed',
  'turn.changed',
  'transcript.appended',
  'transcript.delta',
  'transcript.finalized',
  'queue.changed',
]);

export type HostFrame =
  | { readonly type: 'welcome'; readonly protocol: number; readonly hostEpoch: string }
  | { readonly type: 'response'; readonly id: number | string | null; readonly ok: true; readonly result: unknown }
  | { readonly type: 'response'; readonly id: number | string | null; readonly ok: false; readonly error: OperationError }
  | { readonly type: 'event'; readonly event: ChangeEvent }
  | { readonly type: 'ignored' };

/** Parses one text frame; anything unexpected (including event kinds newer than this renderer) is ignored. */
export function decodeHostFrame(text: string): HostFrame {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { type: 'ignored' };
  }
  const event = eventFrame.safeParse(parsed);
  if (event.success) {
    if (!KNOWN_EVENT_KINDS.has(event.data.event.kind)) return { type: 'ignored' };
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
