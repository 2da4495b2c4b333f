import { homedir } from 'node:os';
import { HookService } from '../hooks/hook-service';
import { TurnHooks } from '../hooks/turn-hooks';
import type { RuntimeDeps } from './runtime-contract';

/**
 * The person's hooks, and those at a turn's edges. The Claude Code agent over ACP reads a workspace's
 * `.claude/settings.json` hooks itself, so Cairn leaves that file out for its sessions.
 */
export function wireHooks(deps: RuntimeDeps): { hooks: HookService; turnHooks: TurnHooks } {
  const { stores } = deps;
  const hooks = new HookService({
    stores,
    logger: deps.logger,
    dataDir: deps.dataDir,
    homeDir: deps.hooksHomeDir ?? homedir(),
    agentRunsClaudeProjectHooks: (sessionId) => {
      const session = stores.sessions.get(sessionId);
      const connection = session === null ? null : stores.connections.get(session.connectionId);
      if (connection?.providerType !== 'acp' || connection.acpAgent === null) return false;
      return connection.acpAgent.preset?.kind === 'claude' || /claude/i.test(connection.acpAgent.command);
    },
  });
  return { hooks, turnHooks: new TurnHooks({ stores, fire: (request) => hooks.fire(request) }) };
}
