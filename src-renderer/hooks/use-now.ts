import { useEffect, useState } from 'react';

/**
 * The current time, ticking every `intervalMs` while `active` (for a live duration). A new
 * `restartKey` (what is being timed changed) reads the clock at once rather than at the next tick.
 */
export function useNow(active: boolean, intervalMs = 1000, restartKey: unknown = null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(timer);
  }, [active, intervalMs, restartKey]);
  return now;
}
