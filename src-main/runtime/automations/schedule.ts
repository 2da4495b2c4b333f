import { Cron } from 'croner';
import type { ScheduleSpec, Weekday } from '../../../src-shared/automation-model';

/**
 * Schedule arithmetic: croner computes every cron and daily slot in the task's IANA time zone, so
 * daylight-saving changes are the library's business (a skipped time runs once after the jump, a
 * repeated one once). No hand-written cron.
 */

const WALL_TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
const WALL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/;

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone.length > 0;
  } catch {
    return false;
  }
}

/** Why the schedule cannot run, written for the person; null when it can. */
export function scheduleProblem(spec: ScheduleSpec, timeZone: string, now: number): string | null {
  if (!isTimeZone(timeZone)) return `"${timeZone}" is not a time zone Cairn knows (use a name like Europe/Berlin).`;
  switch (spec.kind) {
    case 'once': {
      if (!WALL_DATE_TIME.test(spec.at)) return 'Give the date and time as YYYY-MM-DDTHH:MM (seconds optional).';
      const at = onceAt(spec.at, timeZone);
      if (at === null) return 'That date does not exist.';
      return at <= now ? 'That time has already passed; choose a time in the future.' : null;
    }
    case 'every':
      return Number.isInteger(spec.minutes) && spec.minutes >= 1 && spec.minutes <= 7 * 24 * 60
        ? null
        : 'Choose between 1 minute and 7 days.';
    case 'daily':
      if (!WALL_TIME.test(spec.time)) return 'Give the time as HH:MM (24-hour).';
      return spec.weekdays.length === 0 ? 'Choose at least one weekday.' : null;
    case 'cron':
      try {
        cronOf(spec.expression, timeZone);
        return null;
      } catch (error) {
        return `That cron expression cannot be read: ${error instanceof Error ? error.message.replace(/^CronPattern: /, '') : String(error)}.`;
      }
  }
}

function cronOf(pattern: string, timeZone: string): Cron {
  return new Cron(pattern, { timezone: timeZone, paused: true, mode: '5-part' });
}

function dailyPattern(spec: { time: string; weekdays: readonly Weekday[] }): string {
  const [hours, minutes] = spec.time.split(':').map(Number);
  const days = [...new Set(spec.weekdays)].sort((a, b) => a - b).join(',');
  return `${minutes} ${hours} * * ${days}`;
}

function onceAt(at: string, timeZone: string): number | null {
  try {
    return (
      new Cron(at.length === 16 ? `${at}:00` : at, { timezone: timeZone, paused: true })
        .nextRun(new Date(0))
        ?.getTime() ?? null
    );
  } catch {
    return null;
  }
}

/**
 * The slots of a schedule after `after` (exclusive), oldest first, at most `count`. `anchor` is when
 * an `every` schedule was set: its slots are anchor + k·N.
 */
export function slotsAfter(
  spec: ScheduleSpec,
  timeZone: string,
  anchor: number,
  after: number,
  count: number,
): number[] {
  if (count <= 0) return [];
  switch (spec.kind) {
    case 'once': {
      const at = onceAt(spec.at, timeZone);
      return at !== null && at > after ? [at] : [];
    }
    case 'every': {
      const step = spec.minutes * 60_000;
      const first = Math.max(1, Math.floor((after - anchor) / step) + 1);
      return Array.from({ length: count }, (_, index) => anchor + (first + index) * step);
    }
    case 'daily':
    case 'cron': {
      const cron = cronOf(spec.kind === 'daily' ? dailyPattern(spec) : spec.expression, timeZone);
      return cron.nextRuns(count, new Date(after)).map((date) => date.getTime());
    }
  }
}

/**
 * The slots in (after, upTo], oldest first: the newest one and how many came before it (counted up to
 * `limit`, so a long absence of a per-minute task stays cheap).
 */
export function dueSlots(
  spec: ScheduleSpec,
  timeZone: string,
  anchor: number,
  after: number,
  upTo: number,
  limit = 10_000,
): { latest: number; count: number } | null {
  if (spec.kind === 'every') {
    const step = spec.minutes * 60_000;
    const last = Math.floor((upTo - anchor) / step);
    const first = Math.max(1, Math.floor((after - anchor) / step) + 1);
    return last >= first ? { latest: anchor + last * step, count: last - first + 1 } : null;
  }
  let latest: number | null = null;
  let count = 0;
  let cursor = after;
  while (count < limit) {
    const batch = slotsAfter(spec, timeZone, anchor, cursor, 100).filter((slot) => slot <= upTo);
    if (batch.length === 0) break;
    count += batch.length;
    latest = batch[batch.length - 1] ?? latest;
    cursor = latest ?? cursor;
    if (batch.length < 100) break;
  }
  if (count >= limit && spec.kind !== 'once') {
    // Too many to count: the newest slot is still found directly.
    const cron = cronOf(spec.kind === 'daily' ? dailyPattern(spec) : spec.expression, timeZone);
    latest = cron.previousRuns(1, new Date(upTo + 1))[0]?.getTime() ?? latest;
  }
  return latest === null ? null : { latest, count };
}

/** A wall-clock rendering of an instant in a time zone, for messages and the UI. */
export function formatInZone(at: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(at);
}
