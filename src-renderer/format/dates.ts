/**
 * Every date and time the app shows, in the person's locale (`Intl`): relative while recent ("5 min
 * ago", "in 20 min"), else a date and time in one format. `locale` is for tests; the app passes none.
 */

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

export interface DateOptions {
  readonly locale?: string;
  /** An IANA zone to show the time in (a schedule's); its name is shown when it is not the local zone. */
  readonly timeZone?: string;
}

/** When something happened or will happen: relative within the hour, else `dateTimeLabel`. */
export function whenLabel(at: number, now: number, options: DateOptions = {}): string {
  const diff = at - now;
  if (Math.abs(diff) < MINUTE_MS) return diff <= 0 ? 'just now' : 'in under a minute';
  if (Math.abs(diff) < HOUR_MS) {
    return new Intl.RelativeTimeFormat(options.locale, { numeric: 'always', style: 'short' }).format(Math.round(diff / MINUTE_MS), 'minute');
  }
  return dateTimeLabel(at, now, options);
}

/** A date and time: the year only when it is not this year's; the zone only when it is not the local one. */
export function dateTimeLabel(at: number, now: number, options: DateOptions = {}): string {
  const zone = options.timeZone;
  return formatted(at, now, options.locale, zone, zone !== undefined && zone !== localTimeZone());
}

/** A wall-clock time written as `YYYY-MM-DDTHH:MM` (a once-task's, in its own zone), in the same format. */
export function wallTimeLabel(wall: string, now: number, options: Pick<DateOptions, 'locale'> = {}): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(wall);
  if (match === null) return wall;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number];
  // The wall time's fields, formatted as a UTC instant so no zone shifts them.
  return formatted(Date.UTC(year, month - 1, day, hour, minute), Date.UTC(new Date(now).getFullYear(), 0, 1), options.locale, 'UTC', false);
}

function formatted(at: number, now: number, locale: string | undefined, zone: string | undefined, showZone: boolean): string {
  return new Intl.DateTimeFormat(locale, {
    ...(zone === undefined ? {} : { timeZone: zone }),
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    ...(yearIn(at, zone) === yearIn(now, zone) ? {} : { year: 'numeric' }),
    hour: '2-digit',
    minute: '2-digit',
    ...(showZone ? { timeZoneName: 'short' } : {}),
  }).format(at);
}

/**
 * A short label for when a session last changed, as chat sidebars show it: the time today,
 * "Yesterday", the weekday within a week, else the date.
 */
export function sessionTimeLabel(at: number, now: number, locale?: string): string {
  const then = new Date(at);
  const today = new Date(now);
  const startOfToday = new Date(today.getFullYear(), today.getMonth(), today.getDate()).getTime();
  if (at >= startOfToday) return then.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' });
  if (at >= startOfToday - DAY_MS) return 'Yesterday';
  if (at >= startOfToday - 6 * DAY_MS) return then.toLocaleDateString(locale, { weekday: 'short' });
  const sameYear = then.getFullYear() === today.getFullYear();
  return then.toLocaleDateString(locale, sameYear ? { day: 'numeric', month: 'short' } : { day: 'numeric', month: 'short', year: 'numeric' });
}

function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

function yearIn(at: number, timeZone: string | undefined): string {
  return new Intl.DateTimeFormat('en-US', { ...(timeZone === undefined ? {} : { timeZone }), year: 'numeric' }).format(at);
}
