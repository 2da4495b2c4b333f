import { migration001Initial } from './001-initial';
import { migration002ConnectionsAndUsage } from './002-connections-and-usage';
import { migration003Interactions } from './003-interactions';
import { migration004ShellRuns } from './004-shell-runs';
import { migration005Goals } from './005-goals';
import { migration006WorkHub } from './006-workhub';
import { migration007SearchIndexDirty } from './007-search-index-dirty';
import { migration008ShellRunIdentity } from './008-shell-run-identity';
import { migration009WorkHubDecisions } from './009-workhub-decisions';
import { migration010GoalControls } from './010-goal-controls';
import { migration011PermissionGrantRevocations } from './011-permission-grant-revocations';
import { migration012ConnectionTimeouts } from './012-connection-timeouts';
import { migration013Codex } from './013-codex';
import { migration014CodexBinary } from './014-codex-binary';
import { migration020Automations } from './020-automations';
import { migration016SessionBranches } from './016-session-branches';
import { migration018McpServers } from './018-mcp-servers';
import { migration021ChatEssentials } from './021-chat-essentials';
import { migration022Attachments } from './022-attachments';
import { migration025QueuedAttachments } from './025-queued-attachments';
import { migration026ContextSummaries } from './026-context-summaries';
import { migration027RemovedSpawns } from './027-removed-spawns';
import { migration028CodexThreads } from './028-codex-threads';
import { migration029CodexAppServers } from './029-codex-app-servers';
import { migration030Acp } from './030-acp';
import { migration019AgentChildren } from './019-agent-children';
import { migration032Checkpoints } from './032-checkpoints';
import { migration034Rewind } from './034-rewind';
import { migration035ConnectionLastTest } from './035-connection-last-test';
import { migration036CodexThreadSummary } from './036-codex-thread-summary';
import { migration037Worktrees } from './037-worktrees';
import { migration039AcpAgentTitle } from './039-acp-agent-title';
import { migration040InteractionAnsweredFrom } from './040-interaction-answered-from';
import { migration041RunStoppedFrom } from './041-run-stopped-from';
import { migration042AcpSessionOffers } from './042-acp-session-offers';
import { migration046OffloadUses } from './046-offload-uses';
import type { Migration } from './migration';

export type { Migration } from './migration';

/** Every migration, in order. Add a file per change; never edit one that has shipped. */
export const MIGRATIONS: readonly Migration[] = [
  migration001Initial,
  migration002ConnectionsAndUsage,
  migration003Interactions,
  migration004ShellRuns,
  migration005Goals,
  migration006WorkHub,
  migration007SearchIndexDirty,
  migration008ShellRunIdentity,
  migration009WorkHubDecisions,
  migration010GoalControls,
  migration011PermissionGrantRevocations,
  migration012ConnectionTimeouts,
  migration013Codex,
  migration014CodexBinary,
  migration016SessionBranches,
  migration018McpServers,
  migration019AgentChildren,
  migration020Automations,
  migration021ChatEssentials,
  migration022Attachments,
  migration025QueuedAttachments,
  migration026ContextSummaries,
  migration027RemovedSpawns,
  migration028CodexThreads,
  migration029CodexAppServers,
  migration030Acp,
  migration032Checkpoints,
  migration034Rewind,
  migration035ConnectionLastTest,
  migration036CodexThreadSummary,
  migration037Worktrees,
  migration039AcpAgentTitle,
  migration040InteractionAnsweredFrom,
  migration041RunStoppedFrom,
  migration042AcpSessionOffers,
  migration046OffloadUses,
];
