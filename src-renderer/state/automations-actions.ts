import type { SliceCreator } from './app-state';
import type { AutomationsActions, AutomationsState } from './automations-slice';

/** The Automations slice's actions, loaded on the first call (see deferredActions). */
export const createAutomationsActions: SliceCreator<AutomationsActions> = (set, get, deps) => {
  const { link } = deps;
  const patch = (changes: Partial<AutomationsState>) =>
    set((state) => ({ automations: { ...state.automations, ...changes } }));
  return {
    async loadAutomations() {
      const [tasks, review] = await Promise.all([link.invoke('schedule.list', {}), link.invoke('dailyReview.get', {})]);
      if (tasks.ok) patch({ tasks: tasks.result.tasks });
      if (review.ok) patch({ review: review.result.config });
    },

    async loadTaskHistory(taskId) {
      const outcome = await link.invoke('schedule.history', { taskId, limit: 20 });
      if (outcome.ok) patch({ history: { ...get().automations.history, [taskId]: outcome.result.firings } });
    },

    async saveTask(draft, existing) {
      const outcome =
        existing === null
          ? await link.invoke('schedule.create', { ...draft, taskId: deps.newId() })
          : await link.invoke('schedule.update', {
              ...draft,
              taskId: existing.taskId,
              expectedRevision: existing.revision,
            });
      void get().loadAutomations();
      return outcome.ok ? { ok: true } : { ok: false, message: outcome.error.message };
    },

    async setTaskEnabled(taskId, enabled) {
      const outcome = await link.invoke(enabled ? 'schedule.resume' : 'schedule.pause', { taskId });
      if (!outcome.ok) get().reportFailure(outcome.error);
      await get().loadAutomations();
    },

    async runTaskNow(taskId) {
      const outcome = await link.invoke('schedule.runNow', { taskId, requestId: deps.newId() });
      if (!outcome.ok) get().reportFailure(outcome.error);
      await Promise.all([get().loadAutomations(), get().loadTaskHistory(taskId)]);
    },

    async removeTask(taskId) {
      const outcome = await link.invoke('schedule.remove', { taskId });
      if (!outcome.ok) get().reportFailure(outcome.error);
      await get().loadAutomations();
    },

    async previewSchedule(schedule, timeZone) {
      const outcome = await link.invoke('schedule.preview', { schedule, timeZone, count: 5 });
      return outcome.ok ? outcome.result : { nextRuns: [], problem: outcome.error.message };
    },

    async saveReview(input) {
      const outcome = await link.invoke('dailyReview.update', {
        ...input,
        expectedRevision: get().automations.review?.revision ?? 0,
      });
      if (outcome.ok) patch({ review: outcome.result.config });
      else void get().loadAutomations();
      return outcome.ok ? { ok: true } : { ok: false, message: outcome.error.message };
    },

    async runReviewNow() {
      const outcome = await link.invoke('dailyReview.runNow', { requestId: deps.newId() });
      if (!outcome.ok) get().reportFailure(outcome.error);
      await get().loadAutomations();
    },
  };
};
