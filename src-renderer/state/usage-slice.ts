import type { UsageGroup, UsageTotals } from '../../src-shared/usage-model';
import type { SliceCreator } from './app-state';

const DAY_MS = 24 * 60 * 60 * 1000;
export const USAGE_DAYS = 30;

export type UsageGrouping = 'day' | 'session' | 'model';

/** Usage over the last month, grouped as `usageBy` says, for Settings. */
export type DailyUsage =
  | { readonly state: 'idle' | 'loading' }
  | { readonly state: 'ready'; readonly totals: UsageTotals; readonly days: readonly UsageGroup[] }
  | { readonly state: 'failed'; readonly message: string };

/** Token and cost totals: per session (usage.summary) for the session header, and by day for Settings. */
export interface UsageSlice {
  readonly sessionUsage: Readonly<Record<string, UsageTotals>>;
  readonly dailyUsage: DailyUsage;
  /** How Settings → Usage groups the last month: by day, by session or by model. */
  readonly usageBy: UsageGrouping;
  setUsageBy(by: UsageGrouping): void;
  loadDailyUsage(): Promise<void>;
  /** Re-reads a session's totals; calls while a read is out are folded into one more read. */
  loadSessionUsage(sessionId: string): Promise<void>;
}

export const createUsageSlice: SliceCreator<UsageSlice> = (set, get, deps) => {
  const reading = new Map<string, { again: boolean }>();
  return {
    sessionUsage: {},
    dailyUsage: { state: 'idle' },
    usageBy: 'day',

    setUsageBy(usageBy) {
      if (get().usageBy === usageBy) return;
      set({ usageBy, dailyUsage: { state: 'loading' } });
      void get().loadDailyUsage();
    },

    async loadDailyUsage() {
      if (get().dailyUsage.state !== 'ready') set({ dailyUsage: { state: 'loading' } });
      const by = get().usageBy;
      const outcome = await deps.link.invoke('usage.summary', {
        by,
        from: Math.max(0, Date.now() - USAGE_DAYS * DAY_MS),
      });
      if (get().usageBy !== by) return;
      set({
        dailyUsage: outcome.ok
          ? { state: 'ready', totals: outcome.result.totals, days: outcome.result.groups }
          : { state: 'failed', message: outcome.error.message },
      });
    },

    async loadSessionUsage(sessionId) {
      const running = reading.get(sessionId);
      if (running !== undefined) {
        running.again = true;
        return;
      }
      const entry = { again: true };
      reading.set(sessionId, entry);
      try {
        while (entry.again) {
          entry.again = false;
          const outcome = await deps.link.invoke('usage.summary', { by: 'session', sessionId });
          if (outcome.ok)
            set((state) => ({ sessionUsage: { ...state.sessionUsage, [sessionId]: outcome.result.totals } }));
        }
      } finally {
        reading.delete(sessionId);
      }
    },
  };
};
