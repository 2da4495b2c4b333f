/**
 * Every date and time the app shows, in the person's locale (`Intl`): relative while recent ("5 min
 * ago", "in 20 min"), else a date and time in one format. `locale` is for tests; the app passes none.
 */

/**
 * Formatters by locale and options, made once: making one costs ~1 ms (its locale data is looked up
 * anew each time), and a sidebar of sessions formats a time per row on every first render.
 */
const dateFormats = new Map<string, Intl.DateTimeFormat>();
function dateFormat(locale: string | undefined, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale ?? ''}|${JSON.stringify(options)}`;
  let format = dateFormats.get(key);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(locale, options);
    dateFormats.set(key, format);
  }
  return format;
}

const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();
function relativeFormat(locale: string | undefined): Intl.RelativeTimeFormat {
  let format = relativeFormats.get(locale ?? '');
  if (format === undefined) {
    format = new Intl.RelativeTimeFormat(locale, { numeric: 'always', style: 'short' });
    relativeFormats.set(locale ?? '', format);
  }
  return format;
}

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
    return relativeFormat(options.locale).format(Math.round(diff / MINUTE_MS), 'minute');
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
  return formatted(
    Date.UTC(year, month - 1, day, hour, minute),
    Date.UTC(new Date(now).getFullYear(), 0, 1),
    options.locale,
    'UTC',
    false,
  );
}

function formatted(
  at: number,
  now: number,
  locale: string | undefined,
  zone: string | undefined,
  showZone: boolean,
): string {
  return dateFormat(locale, {
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
  if (at >= startOfToday) return dateFormat(locale, { hour: '2-digit', minute: '2-digit' }).format(then);
  if (at >= startOfToday - DAY_MS) return 'Yesterday';
  if (at >= startOfToday - 6 * DAY_MS) return dateFormat(locale, { weekday: 'short' }).format(then);
  const sameYear = then.getFullYear() === today.getFullYear();
  return dateFormat(
    locale,
    sameYear ? { day: 'numeric', month: 'short' } : { day: 'numeric', month: 'short', year: 'numeric' },
  ).format(then);
}

function localTimeZone(): string {
  return dateFormat(undefined, {}).resolvedOptions().timeZone;
}

function yearIn(at: number, timeZone: string | undefined): string {
  return dateFormat('en-US', { ...(timeZone === undefined ? {} : { timeZone }), year: 'numeric' }).format(at);
}
