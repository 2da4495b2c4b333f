import type { ChangeEventBody } from '../../../src-shared/events';
import type { Firing } from '../../../src-shared/automation-model';
import type { AutomationStore, StoredFiring, StoredTask } from '../../storage/automation-store';
import type { Stores } from '../../storage/stores';
import type { EventBus } from '../ports/event-bus';
import type { AdmissionGate } from '../lifecycle/admission-gate';
import type { Clock, Logger } from '../ports/ports';
import type { SessionService } from '../sessions/session-service';
import type { TurnService } from '../turns/turn-service';

export interface FiringRunnerDeps {
  readonly stores: Stores;
  readonly bus: EventBus;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly admission: AdmissionGate;
  readonly turns: TurnService;
  readonly sessions: SessionService;
}

export const DAILY_REVIEW_TITLE = 'Daily review';

/**
 * Starts the turn of a recorded (`pending`) firing, once. The turn id is the firing id and the
 * follow-up queue answers a repeated submit with what it recorded, so resuming a firing after a crash
 * never starts a second turn. A busy session gets it as a queued follow-up; an archived or removed
 * one skips it and pauses the task, with a notice.
 */
export class FiringRunner {
  constructor(private readonly deps: FiringRunnerDeps) {}

  private get store(): AutomationStore {
    return this.deps.stores.automations;
  }

  run(firingId: string): void {
    const firing = this.store.getFiring(firingId);
    if (firing === null || firing.status !== 'pending') return;
    if (!this.deps.admission.isOpen) return; // resumed at the next start
    const task = this.store.getTask(firing.taskId);
    if (task === null) return this.settle(firing, 'skipped', 'The task was removed before it could run.');
    if (task.effect === 'notify') {
      this.settle(firing, 'notified', null);
      this.notice('automation_reminder', null, `${task.title}: ${task.prompt}`);
      return;
    }
    const sessionId = firing.sessionId;
    if (sessionId === null) return this.settle(firing, 'failed', 'No session was planned for this run.');
    const session = this.deps.stores.sessions.get(sessionId);
    if (session === null) {
      if (task.target.kind === 'session' && task.system === null) {
        return this.skipAndPause(task, firing, 'The session this task runs in was removed.');
      }
      const created = this.createSession(task, sessionId);
      if (created !== null) return this.settle(firing, 'failed', created);
    } else if (session.archived) {
      return this.skipAndPause(task, firing, `The session "${session.title}" is archived.`);
    }
    const submitted = this.deps.turns.submitMessage(sessionId, firing.firingId, firing.prompt, { keepWaiting: true });
    if (submitted.ok) {
      this.settle(firing, submitted.result.disposition === 'started' ? 'started' : 'queued', null);
      return;
    }
    if (submitted.error.code === 'host_draining') return;
    if (submitted.error.code === 'session_archived' || submitted.error.code === 'not_found') {
      return this.skipAndPause(task, firing, submitted.error.message);
    }
    this.settle(firing, 'failed', submitted.error.message);
  }

  /** A new session for a `newSession` task (or the daily review's reserved one); the problem, or null. */
  private createSession(task: StoredTask, sessionId: string): string | null {
    if (task.target.kind !== 'newSession') return 'The session this task runs in was removed.';
    const { target } = task;
    const created = this.deps.sessions.create({
      sessionId,
      title: task.system === 'daily_review' ? DAILY_REVIEW_TITLE : task.title,
      connectionId: target.connectionId,
      ...(target.model === null ? {} : { model: target.model }),
      ...(target.workspacePath === null ? {} : { workspacePath: target.workspacePath }),
      permissionMode: target.permissionMode,
    });
    if (!created.ok) return `Could not open a session for it: ${created.error.message}`;
    if (task.system === 'daily_review') this.store.setReservedSession(task.taskId, sessionId);
    return null;
  }

  private skipAndPause(task: StoredTask, firing: StoredFiring, reason: string): void {
    const { stores, clock } = this.deps;
    stores.transaction(() => {
      stores.automations.setFiringStatus(firing.firingId, 'skipped', { reason }, clock.now());
      stores.automations.setEnabled(task.taskId, false, reason, clock.now());
    });
    this.deps.bus.publish({ kind: 'automation.changed', taskId: task.taskId });
    const name = task.system === 'daily_review' ? 'The daily review' : `"${task.title}"`;
    this.notice(
      'automation_paused',
      firing.sessionId,
      `${name} was paused: ${reason} Choose another session and resume it.`,
    );
  }

  private settle(firing: StoredFiring, status: Firing['status'], reason: string | null): void {
    this.store.setFiringStatus(firing.firingId, status, { reason }, this.deps.clock.now());
    this.deps.bus.publish({ kind: 'automation.changed', taskId: firing.taskId });
  }

  private notice(
    code: Extract<ChangeEventBody, { kind: 'host.notice' }>['code'],
    sessionId: string | null,
    message: string,
  ): void {
    this.deps.bus.publish({ kind: 'host.notice', code, sessionId, message });
  }
}
