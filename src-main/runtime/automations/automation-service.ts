import {
  DAILY_REVIEW_TASK_ID,
  DEFAULT_CATCH_UP_MINUTES,
  type DailyReviewConfig,
  type Firing,
  type ScheduleSpec,
  type ScheduledTask,
  type TaskEffect,
  type TaskTarget,
} from '../../../src-shared/automation-model';
import { fail, ok, type Outcome } from '../../../src-shared/errors';
import type { StoredFiring, StoredTask, TaskFields } from '../../storage/automation-store';
import type { Stores } from '../../storage/stores';
import type { ConnectionService } from '../connections/connection-service';
import type { EventBus } from '../ports/event-bus';
import type { AdmissionGate } from '../lifecycle/admission-gate';
import type { Clock, Ids } from '../ports/ports';
import { manualFiringId } from './firing-id';
import { scheduleProblem, slotsAfter } from './schedule';
import type { FiringRunner } from './firing-runner';
import type { Scheduler } from './scheduler';

export interface AutomationServiceDeps {
  readonly stores: Stores;
  readonly bus: EventBus;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly admission: AdmissionGate;
  readonly connections: ConnectionService;
  readonly scheduler: Scheduler;
  readonly runner: FiringRunner;
}

export interface TaskInput {
  readonly title: string;
  readonly prompt: string;
  readonly target: TaskTarget;
  readonly schedule: ScheduleSpec;
  readonly timeZone: string;
  readonly effect: TaskEffect;
  readonly catchUpMinutes?: number | undefined;
}

export interface DailyReviewInput {
  readonly expectedRevision: number;
  readonly enabled: boolean;
  readonly time: string;
  readonly timeZone: string;
  readonly connectionId: string | null;
  readonly model: string | null;
}

const DEFAULT_REVIEW_TIME = '18:00';
const HISTORY_LIMIT = 50;

/** The automation operations: tasks, their firings, Run now, and the daily review's settings. */
export class AutomationService {
  constructor(private readonly deps: AutomationServiceDeps) {}

  create(
    input: TaskInput & { taskId: string; enabled?: boolean | undefined },
  ): Outcome<{ task: ScheduledTask }, 'invalid_input' | 'operation_conflict'> {
    const { stores, clock, bus, scheduler } = this.deps;
    const existing = stores.automations.getTask(input.taskId);
    if (existing !== null) {
      if (existing.system !== null || existing.revision !== 1 || !sameFields(existing, fieldsOf(input))) {
        return fail('operation_conflict', 'A different task was already created with this id.');
      }
      return ok({ task: this.project(existing) });
    }
    const problem = this.problemOf(input);
    if (problem !== null) return fail('invalid_input', problem);
    const task = stores.automations.insertTask({
      ...fieldsOf(input),
      taskId: input.taskId,
      system: null,
      enabled: input.enabled ?? true,
      now: clock.now(),
    });
    bus.publish({ kind: 'automation.changed', taskId: task.taskId });
    scheduler.tick();
    return ok({ task: this.project(task) });
  }

  update(
    input: TaskInput & { taskId: string; expectedRevision: number },
  ): Outcome<{ task: ScheduledTask }, 'invalid_input' | 'not_found' | 'revision_conflict'> {
    const { stores, clock, bus, scheduler } = this.deps;
    const task = this.personTask(input.taskId);
    if (task === null) return missingTask();
    if (task.revision !== input.expectedRevision) {
      return fail(
        'revision_conflict',
        'This task changed since you opened it. Reload it to see the change, then edit again.',
      );
    }
    const problem = this.problemOf(input);
    if (problem !== null) return fail('invalid_input', problem);
    const updated = stores.automations.updateTask(task.taskId, fieldsOf(input), clock.now());
    bus.publish({ kind: 'automation.changed', taskId: task.taskId });
    scheduler.tick();
    return ok({ task: this.project(updated) });
  }

  setEnabled(taskId: string, enabled: boolean): Outcome<{ task: ScheduledTask }, 'invalid_input' | 'not_found'> {
    const { stores, clock, bus, scheduler } = this.deps;
    const task = this.personTask(taskId);
    if (task === null) return missingTask();
    if (task.enabled === enabled) return ok({ task: this.project(task) });
    if (enabled) {
      const problem = this.targetProblem(task.target);
      if (problem !== null) return fail('invalid_input', `${problem} Edit the task to choose another session.`);
    }
    const updated = stores.automations.setEnabled(taskId, enabled, null, clock.now());
    bus.publish({ kind: 'automation.changed', taskId });
    scheduler.tick();
    return ok({ task: this.project(updated) });
  }

  remove(taskId: string): Outcome<{ removed: boolean }, never> {
    const task = this.personTask(taskId);
    const removed = task !== null && this.deps.stores.automations.removeTask(taskId);
    if (removed) this.deps.bus.publish({ kind: 'automation.changed', taskId });
    this.deps.scheduler.tick();
    return ok({ removed });
  }

  /** The next runs of a schedule being written (the form's preview), or why it cannot run. */
  preview(input: {
    schedule: ScheduleSpec;
    timeZone: string;
    count: number;
  }): Outcome<{ nextRuns: number[]; problem: string | null }, never> {
    const now = this.deps.clock.now();
    const problem = scheduleProblem(input.schedule, input.timeZone, now);
    if (problem !== null) return ok({ nextRuns: [], problem });
    return ok({ nextRuns: slotsAfter(input.schedule, input.timeZone, now, now, input.count), problem: null });
  }

  list(): Outcome<{ tasks: ScheduledTask[] }, never> {
    return ok({ tasks: this.deps.stores.automations.listTasks().map((task) => this.project(task)) });
  }

  get(taskId: string): Outcome<{ task: ScheduledTask }, 'not_found'> {
    const task = this.personTask(taskId);
    return task === null ? missingTask() : ok({ task: this.project(task) });
  }

  history(taskId: string, limit = HISTORY_LIMIT): Outcome<{ firings: Firing[] }, 'not_found'> {
    const task = this.deps.stores.automations.getTask(taskId);
    if (task === null) return missingTask();
    return ok({ firings: this.deps.stores.automations.history(taskId, limit).map((firing) => this.firing(firing)) });
  }

  runNow(
    taskId: string,
    requestId: string,
  ): Outcome<{ firing: Firing }, 'host_draining' | 'not_found' | 'session_busy' | 'storage_damaged'> {
    const task = this.personTask(taskId);
    if (task === null) return missingTask();
    return this.fireNow(task, requestId);
  }

  reviewConfig(): Outcome<{ config: DailyReviewConfig }, never> {
    const task = this.deps.stores.automations.getTask(DAILY_REVIEW_TASK_ID);
    const now = this.deps.clock.now();
    if (task === null) {
      return ok({
        config: {
          enabled: false,
          time: DEFAULT_REVIEW_TIME,
          timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
          connectionId: null,
          model: null,
          revision: 0,
          sessionId: null,
          nextRunAt: null,
          lastFiring: null,
        },
      });
    }
    const last = this.deps.stores.automations.lastFiring(task.taskId);
    const reserved =
      task.reservedSessionId !== null && this.deps.stores.sessions.get(task.reservedSessionId) !== null
        ? task.reservedSessionId
        : null;
    return ok({
      config: {
        enabled: task.enabled,
        time: task.schedule.kind === 'daily' ? task.schedule.time : DEFAULT_REVIEW_TIME,
        timeZone: task.timeZone,
        connectionId: task.target.kind === 'newSession' ? task.target.connectionId : null,
        model: task.target.kind === 'newSession' ? task.target.model : null,
        revision: task.revision,
        sessionId: reserved,
        nextRunAt: this.deps.scheduler.nextRunAt(task, now),
        lastFiring: last === null ? null : this.firing(last),
      },
    });
  }

  updateReview(
    input: DailyReviewInput,
  ): Outcome<{ config: DailyReviewConfig }, 'invalid_input' | 'operation_conflict'> {
    const { stores, clock, bus, scheduler, connections } = this.deps;
    const task = stores.automations.getTask(DAILY_REVIEW_TASK_ID);
    if ((task?.revision ?? 0) !== input.expectedRevision) {
      return fail(
        'operation_conflict',
        'The daily review settings changed since you opened them. Reload them, then change them again.',
      );
    }
    const fallback = connections.defaultTarget();
    const connectionId = input.connectionId ?? fallback.connectionId;
    if (connections.get(connectionId) === null) return fail('invalid_input', 'That connection does not exist.');
    const fields: TaskFields = {
      title: 'Daily review',
      prompt: 'Review the day.',
      target: {
        kind: 'newSession',
        connectionId,
        model: input.model ?? (input.connectionId === null ? fallback.modelId : null),
        workspacePath: null,
        permissionMode: 'explore',
      },
      schedule: { kind: 'daily', time: input.time, weekdays: [0, 1, 2, 3, 4, 5, 6] },
      timeZone: input.timeZone,
      effect: 'turn',
      catchUpMinutes: DEFAULT_CATCH_UP_MINUTES,
    };
    const problem = scheduleProblem(fields.schedule, fields.timeZone, clock.now());
    if (problem !== null) return fail('invalid_input', problem);
    const now = clock.now();
    stores.transaction(() => {
      const current =
        task ??
        stores.automations.insertTask({
          ...fields,
          taskId: DAILY_REVIEW_TASK_ID,
          system: 'daily_review',
          enabled: input.enabled,
          now,
        });
      if (task !== null) stores.automations.updateTask(current.taskId, fields, now);
      if (task !== null && task.enabled !== input.enabled)
        stores.automations.setEnabled(current.taskId, input.enabled, null, now);
      const reserved = current.reservedSessionId === null ? null : stores.sessions.get(current.reservedSessionId);
      if (reserved !== null && fields.target.kind === 'newSession') {
        stores.sessions.configure(
          reserved.sessionId,
          {
            connectionId,
            model: fields.target.model,
            permissionMode: reserved.permissionMode,
            workspacePath: reserved.workspacePath,
          },
          now,
        );
      }
    });
    bus.publish({ kind: 'automation.changed', taskId: DAILY_REVIEW_TASK_ID });
    scheduler.tick();
    return this.reviewConfig();
  }

  reviewNow(
    requestId: string,
  ): Outcome<{ firing: Firing }, 'host_draining' | 'operation_conflict' | 'session_busy' | 'storage_damaged'> {
    const task = this.deps.stores.automations.getTask(DAILY_REVIEW_TASK_ID);
    if (task === null) return fail('operation_conflict', 'Set up the daily review first.');
    return this.fireNow(task, requestId);
  }

  private fireNow(
    task: StoredTask,
    requestId: string,
  ): Outcome<{ firing: Firing }, 'host_draining' | 'session_busy' | 'storage_damaged'> {
    const { stores, clock, ids, bus, admission, scheduler, runner } = this.deps;
    const firingId = manualFiringId(task.taskId, requestId);
    const existing = stores.automations.getFiring(firingId);
    if (existing !== null) return ok({ firing: this.firing(existing) });
    const refused = admission.refusal();
    if (refused !== null) return refused;
    const now = clock.now();
    stores.automations.insertFiring({
      firingId,
      taskId: task.taskId,
      slotAt: now,
      status: 'pending',
      reason: null,
      catchUp: false,
      collapsedSlots: 0,
      manual: true,
      prompt: scheduler.promptOf(task, now),
      sessionId: scheduler.plannedSession(task, ids),
      now,
    });
    bus.publish({ kind: 'automation.changed', taskId: task.taskId });
    runner.run(firingId);
    const fired = stores.automations.getFiring(firingId);
    if (fired === null) throw new Error('A recorded firing vanished');
    return ok({ firing: this.firing(fired) });
  }

  private personTask(taskId: string): StoredTask | null {
    const task = this.deps.stores.automations.getTask(taskId);
    return task === null || task.system !== null ? null : task;
  }

  private problemOf(input: TaskInput): string | null {
    return (
      scheduleProblem(input.schedule, input.timeZone, this.deps.clock.now()) ??
      (input.effect === 'turn' ? this.targetProblem(input.target) : null)
    );
  }

  private targetProblem(target: TaskTarget): string | null {
    if (target.kind === 'session') {
      const session = this.deps.stores.sessions.get(target.sessionId);
      if (session === null) return 'That session does not exist.';
      if (this.deps.stores.agents.get(target.sessionId) !== null) {
        return `"${session.title}" is a child agent's session: its agent gives it its work. Choose a session of your own.`;
      }
      return session.archived ? `The session "${session.title}" is archived.` : null;
    }
    return this.deps.connections.get(target.connectionId) === null ? 'That connection does not exist.' : null;
  }

  project(task: StoredTask): ScheduledTask {
    const last = this.deps.stores.automations.lastFiring(task.taskId);
    return {
      taskId: task.taskId,
      title: task.title,
      prompt: task.prompt,
      target: task.target,
      schedule: task.schedule,
      timeZone: task.timeZone,
      effect: task.effect,
      catchUpMinutes: task.catchUpMinutes,
      enabled: task.enabled,
      pausedReason: task.pausedReason,
      revision: task.revision,
      createdAt: task.createdAt,
      updatedAt: task.updatedAt,
      nextRunAt: this.deps.scheduler.nextRunAt(task, this.deps.clock.now()),
      lastFiring: last === null ? null : this.firing(last),
    };
  }

  firing(firing: StoredFiring): Firing {
    const turn = firing.sessionId === null ? null : this.deps.stores.turns.getTurn(firing.sessionId, firing.firingId);
    return {
      firingId: firing.firingId,
      taskId: firing.taskId,
      slotAt: firing.slotAt,
      recordedAt: firing.recordedAt,
      status: firing.status,
      reason: firing.reason,
      catchUp: firing.catchUp,
      collapsedSlots: firing.collapsedSlots,
      manual: firing.manual,
      sessionId: firing.sessionId,
      turnId: turn === null ? null : turn.turnId,
      turnStatus: turn === null ? null : turn.status,
    };
  }
}

function fieldsOf(input: TaskInput): TaskFields {
  return {
    title: input.title,
    prompt: input.prompt,
    target: input.target,
    schedule: input.schedule,
    timeZone: input.timeZone,
    effect: input.effect,
    catchUpMinutes: input.catchUpMinutes ?? DEFAULT_CATCH_UP_MINUTES,
  };
}

function sameFields(task: StoredTask, fields: TaskFields): boolean {
  return JSON.stringify(fieldsOf(task)) === JSON.stringify(fields);
}

function missingTask() {
  return fail('not_found', 'That task does not exist. It may have been removed.');
}
