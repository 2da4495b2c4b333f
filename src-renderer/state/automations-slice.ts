import type { DailyReviewConfig, Firing, ScheduleSpec, ScheduledTask } from '../../src-shared/automation-model';
import type { OperationInput } from '../../src-shared/operations';
import type { SliceCreator } from './app-state';

export type AutomationOutcome = { readonly ok: true } | { readonly ok: false; readonly message: string };
export type TaskDraftInput = Omit<OperationInput<'schedule.create'>, 'taskId'>;

export interface AutomationsState {
  /** The Automations view is open (it shows while no session is selected). */
  readonly open: boolean;
  readonly tasks: readonly ScheduledTask[];
  readonly review: DailyReviewConfig | null;
  readonly history: Readonly<Record<string, readonly Firing[]>>;
}

/** Scheduled tasks and the daily review: what the Automations view shows and does. */
export interface AutomationsSlice {
  readonly automations: AutomationsState;
  openAutomations(): void;
  closeAutomations(): void;
  loadAutomations(): Promise<void>;
  loadTaskHistory(taskId: string): Promise<void>;
  saveTask(draft: TaskDraftInput, existing: ScheduledTask | null): Promise<AutomationOutcome>;
  setTaskEnabled(taskId: string, enabled: boolean): Promise<void>;
  runTaskNow(taskId: string): Promise<void>;
  removeTask(taskId: string): Promise<void>;
  previewSchedule(schedule: ScheduleSpec, timeZone: string): Promise<{ nextRuns: readonly number[]; problem: string | null }>;
  saveReview(input: Omit<OperationInput<'dailyReview.update'>, 'expectedRevision'>): Promise<AutomationOutcome>;
  runReviewNow(): Promise<void>;
  /** Host events: re-read what an automation change touched. */
  noteAutomationChanged(taskIds: readonly string[]): void;
}

export const createAutomationsSlice: SliceCreator<AutomationsSlice> = (set, get, deps) => {
  const { link } = deps;
  const patch = (changes: Partial<AutomationsState>) => set((state) => ({ automations: { ...state.automations, ...changes } }));
  return {
    automations: { open: false, tasks: [], review: null, history: {} },

    openAutomations() {
      get().selectSession(null);
      patch({ open: true });
      void get().loadAutomations();
    },
    closeAutomations: () => patch({ open: false }),

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
          : await link.invoke('schedule.update', { ...draft, taskId: existing.taskId, expectedRevision: existing.revision });
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
      const outcome = await link.invoke('dailyReview.update', { ...input, expectedRevision: get().automations.review?.revision ?? 0 });
      if (outcome.ok) patch({ review: outcome.result.config });
      else void get().loadAutomations();
      return outcome.ok ? { ok: true } : { ok: false, message: outcome.error.message };
    },

    async runReviewNow() {
      const outcome = await link.invoke('dailyReview.runNow', { requestId: deps.newId() });
      if (!outcome.ok) get().reportFailure(outcome.error);
      await get().loadAutomations();
    },

    noteAutomationChanged(taskIds) {
      if (!get().automations.open || taskIds.length === 0) return;
      void get().loadAutomations();
      for (const taskId of new Set(taskIds)) if (taskId in get().automations.history) void get().loadTaskHistory(taskId);
    },
  };
};
