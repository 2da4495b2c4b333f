import type { PermissionMode, RunStatus } from './model';

/**
 * Automations: scheduled tasks and the daily review. Schedules are computed in the host
 * (runtime/automations/schedule.ts, by croner in an explicit IANA time zone); the renderer asks
 * `schedule.preview` for the next runs.
 */

export type Weekday = 0 | 1 | 2 | 3 | 4 | 5 | 6;

export type ScheduleSpec =
  /** Once, at a wall-clock time (`YYYY-MM-DDTHH:MM`, seconds optional) in the task's time zone. */
  | { readonly kind: 'once'; readonly at: string }
  /** Every N minutes, counted from when the schedule was set. */
  | { readonly kind: 'every'; readonly minutes: number }
  /** At `HH:MM` on the chosen weekdays (0 = Sunday). */
  | { readonly kind: 'daily'; readonly time: string; readonly weekdays: Weekday[] }
  | { readonly kind: 'cron'; readonly expression: string };

export type TaskTarget =
  | { readonly kind: 'session'; readonly sessionId: string }
  | {
      readonly kind: 'newSession';
      readonly connectionId: string;
      readonly model: string | null;
      readonly workspacePath: string | null;
      readonly permissionMode: PermissionMode;
    };

export type TaskEffect = 'turn' | 'notify';

export const DEFAULT_CATCH_UP_MINUTES = 60;

export interface ScheduledTask {
  readonly taskId: string;
  readonly title: string;
  readonly prompt: string;
  readonly target: TaskTarget;
  readonly schedule: ScheduleSpec;
  readonly timeZone: string;
  readonly effect: TaskEffect;
  readonly catchUpMinutes: number;
  readonly enabled: boolean;
  /** Why it was paused by Cairn (its session was archived), or null. */
  readonly pausedReason: string | null;
  readonly revision: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** The next slot it will fire at; null when paused or when a `once` task has fired. */
  readonly nextRunAt: number | null;
  readonly lastFiring: Firing | null;
}

/**
 * What became of one slot. `pending`: recorded, its turn not yet confirmed started (a crash here is
 * resumed at the next start, never fired twice). `started`/`queued`: its turn runs, or waits behind the
 * session's current turn as a follow-up. `missed`: Cairn was not running within the catch-up window.
 */
export const FIRING_STATUSES = ['pending', 'started', 'queued', 'notified', 'missed', 'skipped', 'failed'] as const;
export type FiringStatus = (typeof FIRING_STATUSES)[number];

export interface Firing {
  /** Derived from the task and its slot time (or the Run now request), so a slot fires once. */
  readonly firingId: string;
  readonly taskId: string;
  readonly slotAt: number;
  readonly recordedAt: number;
  readonly status: FiringStatus;
  readonly reason: string | null;
  /** Fired after its time, when Cairn started within the catch-up window. */
  readonly catchUp: boolean;
  /** Earlier slots that collapsed into this one (missed together while Cairn was not running). */
  readonly collapsedSlots: number;
  readonly manual: boolean;
  readonly sessionId: string | null;
  /** The turn it started (its id is the firing id). */
  readonly turnId: string | null;
  /** That turn's status now, or null before it started. */
  readonly turnStatus: RunStatus | null;
}

/** host.notice codes of automations: a run finished, a run waits for an answer, a task was paused. */
export type AutomationNoticeCode =
  'automation_finished' | 'automation_waiting' | 'automation_paused' | 'automation_missed' | 'automation_reminder';

export const DAILY_REVIEW_TASK_ID = 'daily-review';

export interface DailyReviewConfig {
  readonly enabled: boolean;
  readonly time: string;
  readonly timeZone: string;
  readonly connectionId: string | null;
  readonly model: string | null;
  readonly revision: number;
  /** The reserved "Daily review" session, once it exists. */
  readonly sessionId: string | null;
  readonly nextRunAt: number | null;
  readonly lastFiring: Firing | null;
}
