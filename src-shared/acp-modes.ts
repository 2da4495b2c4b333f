import type { AcpSelector } from './acp-model';
import type { PermissionMode } from './model';

/**
 * How an ACP agent's own modes sit with Cairn's permission mode. Cairn answers the agent's permission
 * requests itself, so in Ask, Auto and Explore the agent must ask before each change: only its modes
 * that do (`default`, `ask`, and the read-only planning modes) may be chosen there; a mode that acts
 * without asking (Claude's `acceptEdits`, `auto`, `bypassPermissions`, any mode Cairn does not know)
 * is offered only in Full. Explore keeps to the read-only modes where the agent has one.
 */

const READ_ONLY_MODES: readonly string[] = ['plan', 'read-only'];
const ASKING_MODES: readonly string[] = ['default', 'ask', ...READ_ONLY_MODES];

/** Whether a selector is the agent's mode (its session modes, or a config option of category `mode`). */
export function isModeSelector(selector: AcpSelector): boolean {
  return selector.kind === 'mode' || selector.category === 'mode';
}

/** The agent modes that may be chosen under Cairn's permission mode, among those offered. */
export function modesAllowed(offered: readonly string[], permissionMode: PermissionMode): string[] {
  if (permissionMode === 'full') return [...offered];
  if (permissionMode === 'explore') {
    const readOnly = offered.filter((id) => READ_ONLY_MODES.includes(id));
    if (readOnly.length > 0) return readOnly;
  }
  return offered.filter((id) => ASKING_MODES.includes(id));
}

/**
 * The mode Cairn puts the agent in: the person's choice where the permission mode allows it, else the
 * one that lets Cairn decide (`default`/`ask`; in Explore `plan`/`read-only` first); null when the agent
 * offers none of these.
 */
export function agentModeIn(
  offered: readonly string[],
  permissionMode: PermissionMode,
  preferred: string | null,
): string | null {
  if (preferred !== null && modesAllowed(offered, permissionMode).includes(preferred)) return preferred;
  const order = permissionMode === 'explore' ? ['plan', 'read-only', 'default', 'ask'] : ['default', 'ask'];
  return order.find((id) => offered.includes(id)) ?? null;
}

/** The mode to show as current: the agent's own while the permission mode allows it, else the one Cairn will put it in. */
export function shownMode(selector: AcpSelector, permissionMode: PermissionMode, preferred: string | null): string {
  const offered = selector.choices.map((choice) => choice.value);
  if (modesAllowed(offered, permissionMode).includes(selector.current)) return selector.current;
  return agentModeIn(offered, permissionMode, preferred) ?? selector.current;
}
