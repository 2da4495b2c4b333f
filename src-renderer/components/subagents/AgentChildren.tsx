import { memo, type KeyboardEvent } from 'react';
import { childAgentCount } from '../../format/agent-status';
import {
  selectChildLink,
  selectChildStatus,
  selectLiveTally,
  selectRootChildIds,
  selectSessionTitle,
} from '../../state/agent-selectors';
import { useAppStore, useStoreApi } from '../../state/store-context';
import { AgentStatusChip, DisclosureIcon } from './AgentStatusChip';

/**
 * Under a root session in the sidebar: its child agents behind a disclosure (closed by default) that
 * says how many there are and what the working ones do. Its buttons are rows of the session list's one
 * Tab stop: arrow keys reach them; on the disclosure, Right opens and Left closes.
 */
export const AgentChildren = memo(function AgentChildren({
  rootSessionId,
  tabStopId,
}: {
  rootSessionId: string;
  tabStopId: string | null;
}) {
  const store = useStoreApi();
  const childIds = useAppStore(selectRootChildIds(rootSessionId));
  const open = useAppStore((state) => state.expandedAgentRoots[rootSessionId] === true);
  const tally = useAppStore(selectLiveTally(rootSessionId));
  const rootTitle = useAppStore(selectSessionTitle(rootSessionId, 'this session'));
  if (childIds.length === 0) return null;
  const listId = `agent-children-${rootSessionId}`;
  const setOpen = (next: boolean) => store.getState().setAgentChildrenOpen(rootSessionId, next);
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    // Left and Right open and close the group here; they do not move to a session's actions.
    event.preventDefault();
    event.stopPropagation();
    if ((event.key === 'ArrowRight') !== open) setOpen(!open);
  };

  return (
    <li className="agent-children" data-testid="agent-children" data-root-session-id={rootSessionId}>
      <button
        type="button"
        className="agent-disclosure"
        data-testid="agent-children-toggle"
        aria-expanded={open}
        aria-controls={listId}
        tabIndex={-1}
        onClick={() => setOpen(!open)}
        onKeyDown={onKeyDown}
      >
        <span className="agent-disclosure-chevron" aria-hidden="true">
          <DisclosureIcon />
        </span>
        {childAgentCount(childIds.length)}
        {tally === '' ? null : (
          <span className="agent-live" data-testid="agent-live-count">
            <span className="agent-dot" aria-hidden="true" />
            {tally}
          </span>
        )}
      </button>
      <ul
        id={listId}
        className="agent-child-list"
        role="list"
        aria-label={`Child agents of ${rootTitle}`}
        hidden={!open}
      >
        {open
          ? childIds.map((childId) => <AgentChildRow key={childId} childId={childId} tabStop={childId === tabStopId} />)
          : null}
      </ul>
    </li>
  );
});

/** One child agent under its root: its title and live status; a click opens its transcript. */
const AgentChildRow = memo(function AgentChildRow({ childId, tabStop }: { childId: string; tabStop: boolean }) {
  const store = useStoreApi();
  const link = useAppStore(selectChildLink(childId));
  const title = useAppStore(
    selectSessionTitle(childId, link === undefined ? 'Child agent' : `${link.agentName}: ${link.task}`),
  );
  const status = useAppStore(selectChildStatus(childId));
  const terminalReason = useAppStore((state) => state.agents.nodes[childId]?.terminalReason ?? null);
  const selected = useAppStore((state) => state.selectedSessionId === childId);
  return (
    <li
      className={`session-row agent-child-row depth-${Math.min(link?.depth ?? 1, 3)}${selected ? ' is-selected' : ''}`}
      data-testid="agent-child-row"
      data-session-id={childId}
      data-status={status ?? 'unknown'}
    >
      <button
        type="button"
        className="session-row-main agent-child-main"
        aria-current={selected ? 'page' : undefined}
        tabIndex={tabStop ? 0 : -1}
        onClick={() => store.getState().selectSession(childId)}
      >
        <span className="session-row-title" title={title}>
          {title}
        </span>
        {status === null ? null : <AgentStatusChip status={status} terminalReason={terminalReason} />}
      </button>
    </li>
  );
});
