import { childStatusDetail, childStatusLabel, type ChildAgentStatus } from '../../format/agent-status';
import { Icon } from '../icons';

/** A child agent's live status as a dot and a word ("waiting for you"); the tooltip says why it ended. */
export function AgentStatusChip({
  status,
  terminalReason,
}: {
  status: ChildAgentStatus;
  terminalReason: string | null;
}) {
  return (
    <span
      className={`agent-status is-${status}`}
      data-testid="agent-status"
      data-status={status}
      title={childStatusDetail(status, terminalReason)}
    >
      <span className="agent-dot" aria-hidden="true" />
      {childStatusLabel(status)}
    </span>
  );
}

/** Two linked nodes: a child agent. */
export const AgentIcon = () => (
  <Icon>
    <circle cx="7" cy="7" r="3" />
    <circle cx="17" cy="17" r="3" />
    <path d="M7 10v3a4 4 0 0 0 4 4h3" />
  </Icon>
);

/** A chevron that points right when closed and down when open (turned by CSS on [aria-expanded]). */
export const DisclosureIcon = () => (
  <Icon>
    <path d="m9 6 6 6-6 6" />
  </Icon>
);

/** Where a session lives in the address (the app reads `#session=<id>`), so a link to it can open in place. */
export function sessionHref(sessionId: string): string {
  return `#${new URLSearchParams({ session: sessionId }).toString()}`;
}
