import type { DailyReviewConfig, Firing, ScheduleSpec, ScheduledTask } from '../../src-shared/automation-model';
import type { OperationInput } from '../../src-shared/operations';
import type { SliceCreator } from './app-state';
import { deferredActions } from './deferred-actions';

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
  previewSchedule(
    schedule: ScheduleSpec,
    timeZone: string,
  ): Promise<{ nextRuns: readonly number[]; problem: string | null }>;
  saveReview(input: Omit<OperationInput<'dailyReview.update'>, 'expectedRevision'>): Promise<AutomationOutcome>;
  runReviewNow(): Promise<void>;
  /** Host events: re-read what an automation change touched. */
  noteAutomationChanged(taskIds: readonly string[]): void;
}

/** What the Automations view reads and does: the bodies load on the first call (automations-actions). */
export type AutomationsActions = Pick<
  AutomationsSlice,
  | 'loadAutomations'
  | 'loadTaskHistory'
  | 'saveTask'
  | 'setTaskEnabled'
  | 'runTaskNow'
  | 'removeTask'
  | 'previewSchedule'
  | 'saveReview'
  | 'runReviewNow'
>;

export const createAutomationsSlice: SliceCreator<AutomationsSlice> = (set, get, deps) => {
  const patch = (changes: Partial<AutomationsState>) =>
    set((state) => ({ automations: { ...state.automations, ...changes } }));
  return {
    automations: { open: false, tasks: [], review: null, history: {} },
    ...deferredActions<AutomationsActions>(
      {
        loadAutomations: true,
        loadTaskHistory: true,
        saveTask: true,
        setTaskEnabled: true,
        runTaskNow: true,
        removeTask: true,
        previewSchedule: true,
        saveReview: true,
        runReviewNow: true,
      },
      () => import('./automations-actions').then((module) => module.createAutomationsActions(set, get, deps)),
    ),

    openAutomations() {
      get().selectSession(null);
      patch({ open: true });
      void get().loadAutomations();
    },
    closeAutomations: () => patch({ open: false }),

    noteAutomationChanged(taskIds) {
      if (!get().automations.open || taskIds.length === 0) return;
      void get().loadAutomations();
      for (const taskId of new Set(taskIds))
        if (taskId in get().automations.history) void get().loadTaskHistory(taskId);
    },
  };
};
