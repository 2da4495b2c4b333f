import path from 'node:path';
import type { ConnectionService } from '../connections/connection-service';
import { SkillService } from '../skills/skill-service';
import type { ToolSurfaceContext } from '../tools/tool-surface';
import { WORKHUB_CONNECTION_ID } from '../workhub/workhub-service';
import type { RuntimeDeps } from './runtime-contract';

/** The tools a context's turns are offered. */
type ToolsOf = (surface: ToolSurfaceContext) => readonly { readonly name: string }[];

/**
 * Skills: found in the person's skills folder and the session's workspace; a connection that runs an
 * agent with its own tools (the WorkHub, Codex, ACP agents) is told skills are not for it.
 */
export function wireSkills(
  deps: RuntimeDeps,
  connections: ConnectionService,
  toolsOf: ToolsOf,
  isNative: (connectionId: string) => boolean,
): SkillService {
  return new SkillService({
    session: (sessionId) => deps.stores.sessions.get(sessionId),
    connectionExists: (connectionId) => connections.get(connectionId) !== null,
    defaultConnectionId: () => connections.defaultTarget().connectionId,
    personalDir: path.join(deps.dataDir, 'skills'),
    toolSurface: (surface) =>
      surface.connectionId === WORKHUB_CONNECTION_ID || isNative(surface.connectionId)
        ? {
            kind: 'native',
            message:
              'This connection runs an agent with its own tools; Cairn’s skills work with the built-in agent and the Offline demo.',
          }
        : { kind: 'tools', names: toolsOf(surface).map((tool) => tool.name) },
  });
}
