import type { Firing, ScheduledTask, ScheduleSpec } from '../../../src-shared/automation-model';
import { wallTimeLabel } from '../../format/dates';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

export function describeSchedule(schedule: ScheduleSpec, now: number): string {
  switch (schedule.kind) {
    case 'once':
      return `Once, ${wallTimeLabel(schedule.at, now)}`;
    case 'every':
      return schedule.minutes % 60 === 0 ? `Every ${schedule.minutes / 60} h` : `Every ${schedule.minutes} min`;
    case 'daily':
      return schedule.weekdays.length === 7
        ? `Daily at ${schedule.time}`
        : `${schedule.weekdays.map((day) => DAYS[day]).join(', ')} at ${schedule.time}`;
    case 'cron':
      return `Cron ${schedule.expression}`;
  }
}

/** A once-task that has run: nothing more is scheduled, so it is shown finished, not switched on. */
export function isFinishedOnceTask(task: Pick<ScheduledTask, 'schedule' | 'nextRunAt' | 'lastFiring'>): boolean {
  return task.schedule.kind === 'once' && task.nextRunAt === null && task.lastFiring !== null;
}

/** A firing's result in a word or two: the turn's status once it started, else the firing's own. */
export function firingResult(firing: Firing): string {
  if (firing.turnStatus !== null) return firing.turnStatus === 'waiting' ? 'needs an answer' : firing.turnStatus;
  switch (firing.status) {
    case 'queued':
      return 'queued (session busy)';
    case 'pending':
      return 'starting';
    default:
      return firing.status;
  }
}

export const WEEKDAYS = DAYS;
