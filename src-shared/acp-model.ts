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
