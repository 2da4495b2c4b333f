import { homedir } from 'node:os';
import { HookService } from '../hooks/hook-service';
import { TurnHooks } from '../turns/turn-hooks';
import type { EventBus } from '../ports/event-bus';
import type { RuntimeDeps } from './runtime-contract';

/**
 * The person's hooks, and those at a turn's edges. The Claude Code agent over ACP reads a workspace's
 * `.claude/settings.json` hooks itself, so Cairn leaves that file out for its sessions.
 */
export function wireHooks(deps: RuntimeDeps, bus: EventBus): { hooks: HookService; turnHooks: TurnHooks } {
  const { stores } = deps;
  const connectionOf = (sessionId: string) => {
    const session = stores.sessions.get(sessionId);
    return session === null ? null : stores.connections.get(session.connectionId);
  };
  const hooks = new HookService({
    stores,
    logger: deps.logger,
    dataDir: deps.dataDir,
    homeDir: deps.hooksHomeDir ?? homedir(),
    agentRunsClaudeProjectHooks: (sessionId) => {
      const connection = connectionOf(sessionId);
      if (connection?.providerType !== 'acp' || connection.acpAgent === null) return false;
      return connection.acpAgent.preset?.kind === 'claude' || /claude/i.test(connection.acpAgent.command);
    },
  });
  const turnHooks = new TurnHooks({
    ...deps,
    bus,
    fire: (request) => hooks.fire(request),
    fileErrors: (sessionId) => hooks.hooksOf(sessionId).errors,
    runsToolsItself: (sessionId) => {
      const type = connectionOf(sessionId)?.providerType;
      return type === 'codex' || type === 'acp';
    },
  });
  return { hooks, turnHooks };
}
