import type { FiringStatus, ScheduleSpec, TaskEffect, TaskTarget } from '../../src-shared/automation-model';
import type { Db } from './database';

/** A task as stored: what the scheduler needs besides what clients see. */
export interface StoredTask {
  readonly taskId: string;
  /** 'daily_review' for the daily review; null for the person's tasks. */
  readonly system: 'daily_review' | null;
  readonly title: string;
  readonly prompt: string;
  readonly target: TaskTarget;
  readonly schedule: ScheduleSpec;
  readonly timeZone: string;
  readonly effect: TaskEffect;
  readonly catchUpMinutes: number;
  readonly enabled: boolean;
  readonly pausedReason: string | null;
  readonly reservedSessionId: string | null;
  /** When the schedule was set: `every` counts from here. */
  readonly anchorAt: number;
  /** Every slot at or before this instant has been handled (fired, missed or passed while paused). */
  readonly cursorAt: number;
  readonly revision: number;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export type TaskFields = Pick<
  StoredTask,
  'title' | 'prompt' | 'target' | 'schedule' | 'timeZone' | 'effect' | 'catchUpMinutes'
>;

export interface StoredFiring {
  readonly firingId: string;
  readonly taskId: string;
  readonly slotAt: number;
  readonly recordedAt: number;
  readonly status: FiringStatus;
  readonly reason: string | null;
  readonly catchUp: boolean;
  readonly collapsedSlots: number;
  readonly manual: boolean;
  /** The message the turn was (or will be) started with, fixed when the firing was recorded. */
  readonly prompt: string;
  readonly sessionId: string | null;
  /** The last turn status the person was told about (so each is told once). */
  readonly toldStatus: string | null;
  readonly updatedAt: number;
}

export interface NewFiring {
  readonly firingId: string;
  readonly taskId: string;
  readonly slotAt: number;
  readonly status: FiringStatus;
  readonly reason: string | null;
  readonly catchUp: boolean;
  readonly collapsedSlots: number;
  readonly manual: boolean;
  readonly prompt: string;
  readonly sessionId: string | null;
  readonly now: number;
}

/** Scheduled tasks and their firings. Every change to a task bumps its revision. */
export interface AutomationStore {
  insertTask(
    task: TaskFields & { taskId: string; system: StoredTask['system']; enabled: boolean; now: number },
  ): StoredTask;
  getTask(taskId: string): StoredTask | null;
  /** The person's tasks (no system task), newest first. */
  listTasks(): StoredTask[];
  enabledTasks(): StoredTask[];
  /** Replaces the task's fields; the schedule restarts from `now` (its anchor and cursor). */
  updateTask(taskId: string, fields: TaskFields, now: number): StoredTask;
  /** Enables or pauses; resuming moves the cursor to `now`, so slots passed while paused are not fired. */
  setEnabled(taskId: string, enabled: boolean, pausedReason: string | null, now: number): StoredTask;
  setCursor(taskId: string, cursorAt: number): void;
  setReservedSession(taskId: string, sessionId: string): void;
  removeTask(taskId: string): boolean;
  /** Inserts the firing; false (and nothing written) when a firing with this id exists. */
  insertFiring(firing: NewFiring): boolean;
  getFiring(firingId: string): StoredFiring | null;
  setFiringStatus(
    firingId: string,
    status: FiringStatus,
    changes: { reason?: string | null; sessionId?: string | null },
    now: number,
  ): StoredFiring;
  setToldStatus(firingId: string, status: string): void;
  history(taskId: string, limit: number): StoredFiring[];
  lastFiring(taskId: string): StoredFiring | null;
  /** Firings recorded whose turn was not confirmed started (a crash came between). */
  pendingFirings(): StoredFiring[];
  /** The firing whose turn this is (a firing's turn id is its firing id). */
  firingOfTurn(sessionId: string, turnId: string): StoredFiring | null;
  /** Tasks that target this session. */
  tasksTargeting(sessionId: string): StoredTask[];
}

interface TaskRow {
  task_id: string;
  system: 'daily_review' | null;
  title: string;
  prompt: string;
  target: string;
  schedule: string;
  time_zone: string;
  effect: TaskEffect;
  catch_up_minutes: number;
  enabled: number;
  paused_reason: string | null;
  reserved_session_id: string | null;
  anchor_at: number;
  cursor_at: number;
  revision: number;
  created_at: number;
  updated_at: number;
}

interface FiringRow {
  firing_id: string;
  task_id: string;
  slot_at: number;
  recorded_at: number;
  status: FiringStatus;
  reason: string | null;
  catch_up: number;
  collapsed_slots: number;
  manual: number;
  prompt: string;
  session_id: string | null;
  told_status: string | null;
  updated_at: number;
}

function toTask(row: TaskRow): StoredTask {
  return {
    taskId: row.task_id,
    system: row.system,
    title: row.title,
    prompt: row.prompt,
    target: JSON.parse(row.target) as TaskTarget,
    schedule: JSON.parse(row.schedule) as ScheduleSpec,
    timeZone: row.time_zone,
    effect: row.effect,
    catchUpMinutes: row.catch_up_minutes,
    enabled: row.enabled === 1,
    pausedReason: row.paused_reason,
    reservedSessionId: row.reserved_session_id,
    anchorAt: row.anchor_at,
    cursorAt: row.cursor_at,
    revision: row.revision,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toFiring(row: FiringRow): StoredFiring {
  return {
    firingId: row.firing_id,
    taskId: row.task_id,
    slotAt: row.slot_at,
    recordedAt: row.recorded_at,
    status: row.status,
    reason: row.reason,
    catchUp: row.catch_up === 1,
    collapsedSlots: row.collapsed_slots,
    manual: row.manual === 1,
    prompt: row.prompt,
    sessionId: row.session_id,
    toldStatus: row.told_status,
    updatedAt: row.updated_at,
  };
}

export function createAutomationStore(db: Db): AutomationStore {
  const insertTask = db.prepare(`
    INSERT INTO automation_tasks (task_id, system, title, prompt, target, schedule, time_zone, effect, catch_up_minutes, enabled,
      paused_reason, reserved_session_id, anchor_at, cursor_at, revision, created_at, updated_at)
    VALUES (@taskId, @system, @title, @prompt, @target, @schedule, @timeZone, @effect, @catchUpMinutes, @enabled,
      NULL, NULL, @now, @now, 1, @now, @now)`);
  const getTask = db.prepare<[string], TaskRow>('SELECT * FROM automation_tasks WHERE task_id = ?');
  const listTasks = db.prepare<[], TaskRow>(
    'SELECT * FROM automation_tasks WHERE system IS NULL ORDER BY created_at DESC, task_id DESC',
  );
  const enabledTasks = db.prepare<[], TaskRow>('SELECT * FROM automation_tasks WHERE enabled = 1');
  const updateTask = db.prepare(`
    UPDATE automation_tasks SET title = @title, prompt = @prompt, target = @target, schedule = @schedule, time_zone = @timeZone,
      effect = @effect, catch_up_minutes = @catchUpMinutes, anchor_at = @now, cursor_at = MAX(cursor_at, @now),
      revision = revision + 1, updated_at = @now
    WHERE task_id = @taskId`);
  const setEnabled = db.prepare(`
    UPDATE automation_tasks SET enabled = @enabled, paused_reason = @pausedReason,
      cursor_at = CASE WHEN @enabled = 1 AND enabled = 0 THEN MAX(cursor_at, @now) ELSE cursor_at END,
      revision = revision + 1, updated_at = @now
    WHERE task_id = @taskId`);
  const setCursor = db.prepare('UPDATE automation_tasks SET cursor_at = MAX(cursor_at, ?) WHERE task_id = ?');
  const setReserved = db.prepare('UPDATE automation_tasks SET reserved_session_id = ? WHERE task_id = ?');
  const removeTask = db.prepare('DELETE FROM automation_tasks WHERE task_id = ?');
  const insertFiring = db.prepare(`
    INSERT OR IGNORE INTO automation_firings (firing_id, task_id, slot_at, recorded_at, status, reason, catch_up, collapsed_slots, manual,
      prompt, session_id, told_status, updated_at)
    VALUES (@firingId, @taskId, @slotAt, @now, @status, @reason, @catchUp, @collapsedSlots, @manual, @prompt, @sessionId, NULL, @now)`);
  const getFiring = db.prepare<[string], FiringRow>('SELECT * FROM automation_firings WHERE firing_id = ?');
  const setFiring = db.prepare(
    'UPDATE automation_firings SET status = @status, reason = @reason, session_id = @sessionId, updated_at = @now WHERE firing_id = @firingId',
  );
  const setTold = db.prepare('UPDATE automation_firings SET told_status = ? WHERE firing_id = ?');
  const history = db.prepare<[string, number], FiringRow>(
    'SELECT * FROM automation_firings WHERE task_id = ? ORDER BY recorded_at DESC, slot_at DESC, firing_id DESC LIMIT ?',
  );
  const pending = db.prepare<[], FiringRow>(
    "SELECT * FROM automation_firings WHERE status = 'pending' ORDER BY recorded_at, firing_id",
  );
  const ofTurn = db.prepare<[string, string], FiringRow>(
    'SELECT * FROM automation_firings WHERE firing_id = ? AND session_id = ?',
  );
  const targeting = db.prepare<[string, string], TaskRow>(
    "SELECT * FROM automation_tasks WHERE json_extract(target, '$.sessionId') = ? OR reserved_session_id = ?",
  );

  const store: AutomationStore = {
    insertTask(task) {
      insertTask.run({
        ...task,
        target: JSON.stringify(task.target),
        schedule: JSON.stringify(task.schedule),
        enabled: task.enabled ? 1 : 0,
      });
      return mustTask(task.taskId);
    },
    getTask(taskId) {
      const row = getTask.get(taskId);
      return row === undefined ? null : toTask(row);
    },
    listTasks: () => listTasks.all().map(toTask),
    enabledTasks: () => enabledTasks.all().map(toTask),
    updateTask(taskId, fields, now) {
      updateTask.run({
        ...fields,
        taskId,
        target: JSON.stringify(fields.target),
        schedule: JSON.stringify(fields.schedule),
        now,
      });
      return mustTask(taskId);
    },
    setEnabled(taskId, enabled, pausedReason, now) {
      setEnabled.run({ taskId, enabled: enabled ? 1 : 0, pausedReason, now });
      return mustTask(taskId);
    },
    setCursor(taskId, cursorAt) {
      setCursor.run(cursorAt, taskId);
    },
    setReservedSession(taskId, sessionId) {
      setReserved.run(sessionId, taskId);
    },
    removeTask: (taskId) => removeTask.run(taskId).changes > 0,
    insertFiring(firing) {
      return (
        insertFiring.run({ ...firing, catchUp: firing.catchUp ? 1 : 0, manual: firing.manual ? 1 : 0 }).changes > 0
      );
    },
    getFiring(firingId) {
      const row = getFiring.get(firingId);
      return row === undefined ? null : toFiring(row);
    },
    setFiringStatus(firingId, status, changes, now) {
      const firing = store.getFiring(firingId);
      if (firing === null) throw new Error(`Firing ${firingId} does not exist`);
      setFiring.run({
        firingId,
        status,
        reason: changes.reason === undefined ? firing.reason : changes.reason,
        sessionId: changes.sessionId === undefined ? firing.sessionId : changes.sessionId,
        now,
      });
      return { ...firing, ...changes, status, updatedAt: now };
    },
    setToldStatus(firingId, status) {
      setTold.run(status, firingId);
    },
    history: (taskId, limit) => history.all(taskId, limit).map(toFiring),
    lastFiring: (taskId) => {
      const row = history.get(taskId, 1);
      return row === undefined ? null : toFiring(row);
    },
    pendingFirings: () => pending.all().map(toFiring),
    firingOfTurn(sessionId, turnId) {
      const row = ofTurn.get(turnId, sessionId);
      return row === undefined ? null : toFiring(row);
    },
    tasksTargeting: (sessionId) => targeting.all(sessionId, sessionId).map(toTask),
  };

  function mustTask(taskId: string): StoredTask {
    const task = store.getTask(taskId);
    if (task === null) throw new Error(`Task ${taskId} vanished`);
    return task;
  }
  return store;
}
