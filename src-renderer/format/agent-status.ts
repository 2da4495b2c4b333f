import type { RunStatus, SessionActivity } from '../../src-shared/model';
import { describeEndReason } from '../../src-shared/run-reasons';

/** A child agent's status as the person reads it: its latest turn's status, or "starting" before it has one. */
export type ChildAgentStatus = RunStatus | 'starting';

const LABELS: Readonly<Record<ChildAgentStatus, string>> = {
  starting: 'starting',
  running: 'running',
  waiting: 'waiting for you',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
  interrupted: 'interrupted',
};

export function childStatusLabel(status: ChildAgentStatus): string {
  return LABELS[status];
}

/** Whether a child in this status is still working (what a Stop would stop). */
export function isLiveChildStatus(status: ChildAgentStatus | null): boolean {
  return status === 'starting' || status === 'running' || status === 'waiting';
}

/**
 * A child's status from the newest thing known: its tree node's turn status, else its session's
 * activity (idle: no turn yet); null when this window knows neither.
 */
export function childStatusFrom(
  nodeStatus: RunStatus | null | undefined,
  activity: SessionActivity | undefined,
): ChildAgentStatus | null {
  if (nodeStatus !== null && nodeStatus !== undefined) return nodeStatus;
  if (activity === undefined) return null;
  return activity === 'idle' ? 'starting' : activity;
}

/** Why a child ended, for a tooltip: "cancelled — the agent that started it was stopped". */
export function childStatusDetail(status: ChildAgentStatus, terminalReason: string | null): string {
  const label = childStatusLabel(status);
  if (status === 'cancelled' || status === 'interrupted' || status === 'failed')
    return `${label} — ${describeEndReason(terminalReason)}`;
  return label;
}

/** "2 child agents", "1 child agent". */
export function childAgentCount(count: number): string {
  return `${count} child agent${count === 1 ? '' : 's'}`;
}

/** The Stop button's words: what else it stops besides the session's own turn. */
export function stopLabel(liveChildren: number): string {
  return liveChildren === 0 ? 'Stop' : `Stop — also stops ${childAgentCount(liveChildren)}`;
}

/** What a root's working children are doing, in a few words ("2 working · 1 waiting for you"); empty when none is. */
export function liveTally(statuses: readonly (ChildAgentStatus | null)[]): string {
  const waiting = statuses.filter((status) => status === 'waiting').length;
  const working = statuses.filter((status) => status === 'running' || status === 'starting').length;
  return [working > 0 ? `${working} working` : '', waiting > 0 ? `${waiting} waiting for you` : '']
    .filter((part) => part !== '')
    .join(' · ');
}
