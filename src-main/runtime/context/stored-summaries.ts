import {
  DEFAULT_COMPACTION_THRESHOLD,
  type CompactionSettings,
  type SummaryRecord,
} from '../../../src-shared/compaction-model';
import type { Stores } from '../../storage/stores';
import type { ModelContextDeps } from './model-context';
import type { GoalPins } from './summary-block';

/** Where the compaction setting is kept (Settings → Context; written by runtime/compaction). */
export const COMPACTION_SETTINGS_KEY = 'context.compaction';

/** The compaction setting: the share of the window at which older turns are summarised. */
export function compactionSettingsOf(stores: Stores): CompactionSettings {
  return (
    stores.settings.get<CompactionSettings>(COMPACTION_SETTINGS_KEY) ?? {
      revision: 0,
      threshold: DEFAULT_COMPACTION_THRESHOLD,
    }
  );
}

/** What a goal keeps in every request however much is summarised; null without a goal. */
export function goalPinsOf(stores: Stores, sessionId: string): GoalPins | null {
  const goal = stores.goals.current(sessionId);
  if (goal === null || goal.cleared) return null;
  return { objective: goal.objective, firstMessage: stores.summaries.firstGoalTurnText(sessionId, goal.goalId) };
}

/** A summary a model request can send: one with text (a native agent's compaction has none). */
function withText(summary: SummaryRecord | null): SummaryRecord | null {
  return summary?.text === null ? null : summary;
}

/** What a model request reads of compaction, straight from the stores: the newest summary, a goal's pins, the threshold. */
export function storedSummaries(
  stores: Stores,
): Required<Pick<ModelContextDeps, 'summaryOf' | 'goalPinsOf' | 'compactionThreshold'>> {
  return {
    summaryOf: (sessionId) => withText(stores.summaries.latest(sessionId)),
    goalPinsOf: (sessionId) => goalPinsOf(stores, sessionId),
    compactionThreshold: () => compactionSettingsOf(stores).threshold,
  };
}
