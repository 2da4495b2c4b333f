import { createHash } from 'node:crypto';

const MAX_ID = 128;

function bounded(raw: string): string {
  return raw.length <= MAX_ID ? raw : `fire:${createHash('sha256').update(raw).digest('hex').slice(0, 40)}`;
}

/**
 * A firing's id, derived from its task and slot time: the same slot always gets the same id, so it
 * can be recorded (and its turn started, the turn id being the firing id) only once.
 */
export function slotFiringId(taskId: string, slotAt: number): string {
  return bounded(`${taskId}:${slotAt}`);
}

/** A Run now firing's id, derived from the task and the client's request id. */
export function manualFiringId(taskId: string, requestId: string): string {
  return bounded(`${taskId}:now:${requestId}`);
}
