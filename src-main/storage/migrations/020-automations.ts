import type { Migration } from './migration';

/**
 * Automations: scheduled tasks (the daily review is one, marked `system`) and their firings. A
 * firing's id is derived from its task and slot time and is written before its turn starts, so a
 * slot fires once even across a crash. `cursor_at`: every slot at or before it has been handled.
 */
export const migration020Automations: Migration = {
  version: 20,
  name: 'automations',
  up: `
    CREATE TABLE automation_tasks (
      task_id TEXT PRIMARY KEY,
      system TEXT,
      title TEXT NOT NULL,
      prompt TEXT NOT NULL,
      target TEXT NOT NULL,
      schedule TEXT NOT NULL,
      time_zone TEXT NOT NULL,
      effect TEXT NOT NULL CHECK (effect IN ('turn', 'notify')),
      catch_up_minutes INTEGER NOT NULL,
      enabled INTEGER NOT NULL,
      paused_reason TEXT,
      reserved_session_id TEXT,
      anchor_at INTEGER NOT NULL,
      cursor_at INTEGER NOT NULL,
      revision INTEGER NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE TABLE automation_firings (
      firing_id TEXT PRIMARY KEY,
      task_id TEXT NOT NULL REFERENCES automation_tasks (task_id) ON DELETE CASCADE,
      slot_at INTEGER NOT NULL,
      recorded_at INTEGER NOT NULL,
      status TEXT NOT NULL,
      reason TEXT,
      catch_up INTEGER NOT NULL,
      collapsed_slots INTEGER NOT NULL,
      manual INTEGER NOT NULL,
      prompt TEXT NOT NULL,
      session_id TEXT,
      told_status TEXT,
      updated_at INTEGER NOT NULL
    );
    CREATE INDEX automation_firings_by_task ON automation_firings (task_id, recorded_at DESC);
    CREATE INDEX automation_firings_by_status ON automation_firings (status);
    CREATE INDEX automation_firings_by_session ON automation_firings (session_id);
  `,
};
