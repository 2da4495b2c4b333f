import { startTransition, useEffect, useState } from 'react';

/**
 * How many rows of a long list to draw: the first `first` at once, then every row in a transition
 * just after (React yields to the browser while it draws them, and anything the person does comes
 * first). The sidebar's 100-row first page drawn whole cost the first load ~50 ms of layout and
 * ~1,900 DOM nodes before the composer could be used; a screen shows at most a few dozen rows.
 */
export function useRowsInSteps(total: number, first: number): number {
  const [all, setAll] = useState(false);
  const waiting = !all && total > first;
  useEffect(() => {
    if (!waiting) return;
    const handle = setTimeout(() => startTransition(() => setAll(true)), 0);
    return () => clearTimeout(handle);
  }, [waiting]);
  return all ? total : Math.min(total, first);
}
