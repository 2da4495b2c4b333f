import type { AgentChildRecord } from '../../src-shared/agent-model';
import { childStatusFrom, isLiveChildStatus, liveTally, type ChildAgentStatus } from '../format/agent-status';
import type { AppState } from './app-state';
import { spawnCallKey } from './reducers/agents-reducer';
import { NO_IDS } from './selectors';

/** Selectors for child agents: each returns one value, stable while what it reads is unchanged. */

/** The link of a child session (undefined for a session no agent started). */
export const selectChildLink =
  (sessionId: string) =>
  (state: AppState): AgentChildRecord | undefined =>
    state.agents.links[sessionId];

/** A child's status now: its tree node's, else its session's activity; null while unknown here. */
export function childStatusIn(state: AppState, childSessionId: string): ChildAgentStatus | null {
  return childStatusFrom(state.agents.nodes[childSessionId]?.status, state.sessions.byId[childSessionId]?.activity);
}

export const selectChildStatus =
  (childSessionId: string) =>
  (state: AppState): ChildAgentStatus | null =>
    childStatusIn(state, childSessionId);

/** Every descendant of a root, oldest first. */
export const selectRootChildIds =
  (rootSessionId: string) =>
  (state: AppState): readonly string[] =>
    state.agents.childIdsByRoot[rootSessionId] ?? NO_IDS;

/** Whether `ancestorId` started `link`'s session, directly or through other children. */
function descendsFrom(state: AppState, link: AgentChildRecord, ancestorId: string): boolean {
  let current: AgentChildRecord | undefined = link;
  for (let hops = 0; current !== undefined && hops < 16; hops += 1) {
    if (current.parentSessionId === ancestorId) return true;
    current = state.agents.links[current.parentSessionId];
  }
  return false;
}

/** How many descendants of a session are still working: what its Stop also stops. */
export const selectLiveDescendantCount =
  (sessionId: string) =>
  (state: AppState): number => {
    const rootSessionId = state.agents.links[sessionId]?.rootSessionId ?? sessionId;
    const ids = state.agents.childIdsByRoot[rootSessionId] ?? NO_IDS;
    let count = 0;
    for (const childId of ids) {
      const link = state.agents.links[childId];
      if (
        link !== undefined &&
        descendsFrom(state, link, sessionId) &&
        isLiveChildStatus(childStatusIn(state, childId))
      )
        count += 1;
    }
    return count;
  };

/** What a root's children are doing now, in words ("2 working · 1 waiting for you"); empty when none works. */
export const selectLiveTally =
  (rootSessionId: string) =>
  (state: AppState): string =>
    liveTally((state.agents.childIdsByRoot[rootSessionId] ?? NO_IDS).map((childId) => childStatusIn(state, childId)));

/** The child a spawn_agent call started (by the parent's session, turn and tool call), or null before it exists. */
export const selectSpawnedChildId =
  (sessionId: string, turnId: string, toolCallId: string) =>
  (state: AppState): string | null =>
    state.agents.childBySpawnCall[spawnCallKey(sessionId, turnId, toolCallId)] ?? null;

/** A session's title, or a stand-in when this window has not read that session. */
export const selectSessionTitle =
  (sessionId: string, fallback: string) =>
  (state: AppState): string =>
    state.sessions.byId[sessionId]?.title ?? fallback;

/**
 * How a session is named where a person is asked for something: a child agent's question reads as its
 * parent's ("Plan the release › Worker agent"), since the person knows the parent, not the child.
 */
export function waitingSessionLabel(
  sessionId: string,
  sessions: AppState['sessions']['byId'],
  links: AppState['agents']['links'],
): string {
  const link = links[sessionId];
  const own = sessions[sessionId]?.title;
  if (link === undefined) return own ?? 'A session';
  const parentLink = links[link.parentSessionId];
  const parentTitle =
    sessions[link.parentSessionId]?.title ?? (parentLink === undefined ? 'A session' : `${parentLink.agentName} agent`);
  return `${parentTitle} › ${link.agentName} agent`;
}
