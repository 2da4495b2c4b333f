import type { Migration } from './migration';

/** An ACP agent's name for people (`agentInfo.title` in its `initialize` answer), beside its name and version: the session header shows it. */
export const migration039AcpAgentTitle: Migration = {
  version: 39,
  name: 'acp-agent-title',
  up: `
    ALTER TABLE acp_checkpoints ADD COLUMN agent_title TEXT;
  `,
};
