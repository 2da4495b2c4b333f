/** The agent an ACP session runs, as it names itself in its `initialize` answer (`agentInfo`). */
export interface AcpAgentIdentity {
  /** Its programmatic name (e.g. `@agentclientprotocol/claude-agent-acp`). */
  readonly name: string;
  /** Its name for people (e.g. "Claude Agent"), when it gives one. */
  readonly title: string | null;
  readonly version: string | null;
}

/** How the session header names the agent: its title (else its name), then its version. */
export function acpAgentDisplayName(agent: AcpAgentIdentity): string {
  const name = agent.title ?? agent.name;
  return agent.version === null ? name : `${name} ${agent.version}`;
}

/** A slash command the agent offers in a session (`available_commands_update`): sent as `/name input`. */
export interface AcpCommand {
  readonly name: string;
  readonly description: string;
  /** What to write after the command (its input hint), when it takes input. */
  readonly hint: string | null;
}

/** One value an agent selector offers. */
export interface AcpChoice {
  readonly value: string;
  readonly name: string;
  readonly description: string | null;
}

/**
 * A choice the agent offers for its session: its mode (`kind: 'mode'`, from its session modes), or
 * one of its config options (`kind: 'option'`: model, thought level, … — `category` says which).
 */
export interface AcpSelector {
  readonly id: string;
  readonly kind: 'mode' | 'option';
  readonly name: string;
  readonly category: string | null;
  readonly current: string;
  readonly choices: readonly AcpChoice[];
}

/** What the agent offers in a session, as it last said: its commands and its selectors. Kept in the session's record. */
export interface AcpSessionOffers {
  readonly commands: readonly AcpCommand[];
  readonly selectors: readonly AcpSelector[];
  /** The person's own choices (selector id → value), applied again when the agent starts for the session. */
  readonly chosen: Readonly<Record<string, string>>;
}

export const NO_ACP_OFFERS: AcpSessionOffers = { commands: [], selectors: [], chosen: {} };

/** One of an ACP agent's own earlier sessions (`session/list`), and the Cairn session it was imported as, if it was. */
export interface AcpListedSession {
  readonly acpSessionId: string;
  readonly cwd: string;
  readonly title: string | null;
  /** When the agent last used it (ms since the epoch), when it says. */
  readonly updatedAt: number | null;
  readonly importedAs: string | null;
}

/** A page of an agent's sessions for a folder; `offered` false when the agent does not declare `session/list`. */
export interface AcpSessionListing {
  readonly offered: boolean;
  /** The agent as it names itself (`initialize`), for "Import from <agent>". */
  readonly agent: string;
  readonly sessions: readonly AcpListedSession[];
  readonly nextCursor: string | null;
}
