import { dueSlots, formatInZone, slotsAfter } from './schedule';
import type { StoredTask } from '../../storage/automation-store';
import type { Stores } from '../../storage/stores';
import type { EventBus } from '../ports/event-bus';
import type { AdmissionGate } from '../lifecycle/admission-gate';
import type { Clock, Ids, Logger } from '../ports/ports';
import { dailyReviewPrompt } from './daily-review-facts';
import { slotFiringId } from './firing-id';
import type { FiringRunner } from './firing-runner';

export interface SchedulerDeps {
  readonly stores: Stores;
  readonly bus: EventBus;
  /** What time it is (the host's clock). */
  readonly clock: Clock;
  /** What the scheduler wakes by; tests drive it by hand. */
  readonly timer: Clock;
  readonly ids: Ids;
  readonly logger: Logger;
  readonly admission: AdmissionGate;
  readonly runner: FiringRunner;
  /** Fault injection for tests: called after a firing is recorded and before its turn starts. */
  readonly afterRecord?: (firingId: string) => void;
}

/** A slot fired this late still counts as on time (a timer woken a little late, a busy event loop). */
export const ON_TIME_MS = 60_000;
/** The longest the scheduler sleeps before looking again (the clock may have jumped, the machine slept). */
const MAX_SLEEP_MS = 60 * 60_000;

/**
 * Fires each enabled task's slots, exactly once each. A slot is recorded (firing id from task and slot
 * time, the task's cursor moved past it) in one transaction before its turn starts; a crash after that
 * resumes the recorded firing at the next start, never a second one. Slots missed while Cairn was not
 * running collapse into one: run once if the newest is within the task's catch-up window, otherwise
 * recorded `missed`.
 */
export class Scheduler {
  private cancelWake: (() => void) | null = null;
  private stopped = false;

  constructor(private readonly deps: SchedulerDeps) {}

  /** At startup: resume firings recorded but not started, then fire or record what came due meanwhile. */
  start(): void {
    for (const firing of this.deps.stores.automations.pendingFirings()) this.deps.runner.run(firing.firingId);
    this.tick(true);
  }

  stop(): void {
    this.stopped = true;
    this.cancelWake?.();
    this.cancelWake = null;
  }

  /**
   * Looks at every enabled task now; then sleeps until the next slot. Called after any task change;
   * `starting`: the first look after a start, where anything due was missed while Cairn was stopped.
   */
  tick(starting = false): void {
    if (this.stopped) return;
    this.cancelWake?.();
    this.cancelWake = null;
    if (!this.deps.admission.isOpen) return; // shutting down: nothing new starts, nothing is recorded
    const now = this.deps.clock.now();
    for (const task of this.deps.stores.automations.enabledTasks()) {
      try {
        this.consider(task, now, starting);
      } catch (error) {
        this.deps.logger.error('A scheduled task could not fire', { taskId: task.taskId, error: String(error) });
      }
    }
    this.arm(now);
  }

  /** The task's next slot after now (or after its cursor, whichever is later); null when none. */
  nextRunAt(task: StoredTask, now: number): number | null {
    if (!task.enabled) return null;
    return slotsAfter(task.schedule, task.timeZone, task.anchorAt, Math.max(task.cursorAt, now), 1)[0] ?? null;
  }

  private consider(task: StoredTask, now: number, starting: boolean): void {
    const { stores, clock, ids, bus } = this.deps;
    const due = dueSlots(task.schedule, task.timeZone, task.anchorAt, task.cursorAt, now);
    if (due === null) return;
    const lateness = now - due.latest;
    const inWindow = lateness <= Math.max(ON_TIME_MS, task.catchUpMinutes * 60_000);
    const firingId = slotFiringId(task.taskId, due.latest);
    const recorded = stores.transaction(() => {
      stores.automations.setCursor(task.taskId, due.latest);
      return stores.automations.insertFiring({
        firingId,
        taskId: task.taskId,
        slotAt: due.latest,
        status: inWindow ? 'pending' : 'missed',
        reason: inWindow
          ? null
          : `Cairn was not running at ${formatInZone(due.latest, task.timeZone)}, and that is longer ago than the catch-up window (${task.catchUpMinutes} min).`,
        catchUp: inWindow && (starting || lateness > ON_TIME_MS),
        collapsedSlots: due.count - 1,
        manual: false,
        prompt: inWindow ? this.promptOf(task, now) : task.prompt,
        sessionId: inWindow ? this.plannedSession(task, ids) : null,
        now: clock.now(),
      });
    });
    bus.publish({ kind: 'automation.changed', taskId: task.taskId });
    if (!recorded) return;
    if (!inWindow) {
      const name = task.system === 'daily_review' ? 'The daily review' : `"${task.title}"`;
      bus.publish({
        kind: 'host.notice',
        code: 'automation_missed',
        sessionId: null,
        message: `${name} missed its run: Cairn was not running then.`,
      });
      return;
    }
    this.deps.afterRecord?.(firingId);
    this.deps.runner.run(firingId);
  }

  /** The message the firing's turn starts with; fixed now, so a resumed firing sends the same. */
  promptOf(task: StoredTask, now: number): string {
    return task.system === 'daily_review'
      ? dailyReviewPrompt(this.deps.stores, now, task.reservedSessionId, task.timeZone)
      : task.prompt;
  }

  /** The session the firing runs in: the task's, the daily review's reserved one, or a new one's id. */
  plannedSession(task: StoredTask, ids: Ids): string | null {
    if (task.effect === 'notify') return null;
    if (task.target.kind === 'session') return task.target.sessionId;
    if (
      task.system === 'daily_review' &&
      task.reservedSessionId !== null &&
      this.deps.stores.sessions.get(task.reservedSessionId) !== null
    ) {
      return task.reservedSessionId;
    }
    return ids.next('session');
  }

  private arm(now: number): void {
    let next: number | null = null;
    for (const task of this.deps.stores.automations.enabledTasks()) {
      const at = this.nextRunAt(task, now);
      if (at !== null && (next === null || at < next)) next = at;
    }
    if (next === null) return;
    this.cancelWake = this.deps.timer.setTimeout(() => this.tick(), Math.min(Math.max(0, next - now), MAX_SLEEP_MS));
  }
}
