const DAY_MS = 24 * 60 * 60 * 1000;

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
