import type { AgentChildRecord } from '../../../src-shared/agent-model';
import type { SessionRecord } from '../../../src-shared/model';
import { selectChildLink, selectChildStatus } from '../../state/agent-selectors';
import { useAppStore, useStoreApi } from '../../state/store-context';
import { AgentIcon, AgentStatusChip, sessionHref } from './AgentStatusChip';
import { openInPlace } from './open-in-place';

interface Crumb {
  readonly sessionId: string;
  readonly title: string;
}

/** The sessions above a child agent, root first, each with the best title known here. */
export function ancestorsOf(
  link: AgentChildRecord,
  links: Readonly<Record<string, AgentChildRecord>>,
  sessions: Readonly<Record<string, SessionRecord>>,
): Crumb[] {
  const crumbs: Crumb[] = [];
  let parentId: string | null = link.parentSessionId;
  while (parentId !== null && crumbs.length < 16) {
    const parentLink: AgentChildRecord | undefined = links[parentId];
    const fallback = parentLink === undefined ? 'Parent session' : `${parentLink.agentName}: ${parentLink.task}`;
    crumbs.unshift({ sessionId: parentId, title: sessions[parentId]?.title ?? fallback });
    parentId = parentLink?.parentSessionId ?? null;
  }
  return crumbs;
}

/** Above a child agent's transcript: where it sits in its agent tree (root › parent › this agent), each a link back, and its status. */
export function AgentBreadcrumb({ sessionId }: { sessionId: string }) {
  const store = useStoreApi();
  const link = useAppStore(selectChildLink(sessionId));
  const links = useAppStore((state) => state.agents.links);
  const sessions = useAppStore((state) => state.sessions.byId);
  const status = useAppStore(selectChildStatus(sessionId));
  const terminalReason = useAppStore((state) => state.agents.nodes[sessionId]?.terminalReason ?? null);
  if (link === undefined) return null;
  return (
    <nav className="agent-breadcrumb" aria-label="Agent tree" data-testid="agent-breadcrumb">
      <span className="agent-breadcrumb-icon" aria-hidden="true">
        <AgentIcon />
      </span>
      <ol>
        {ancestorsOf(link, links, sessions).map((crumb) => (
          <li key={crumb.sessionId}>
            <a
              href={sessionHref(crumb.sessionId)}
              title={crumb.title}
              onClick={(event) => openInPlace(event, () => store.getState().selectSession(crumb.sessionId))}
            >
              {crumb.title}
            </a>
          </li>
        ))}
        <li aria-current="page">{link.agentName} agent</li>
      </ol>
      {status === null ? null : <AgentStatusChip status={status} terminalReason={terminalReason} />}
    </nav>
  );
}
