import type { Stores } from '../../storage/stores';
import type { AgentService } from '../subagents/agent-service';
import { createAgentTools } from '../subagents/agent-tools';
import type { CheckpointService } from '../checkpoints/checkpoint-service';
import type { ContextRuntime } from '../context/context-runtime';
import type { GoalService } from '../goals/goal-service';
import { createGoalTools } from '../goals/goal-tools';
import { askUserTool } from '../interactions/ask-user-tool';
import type { McpServerService } from '../mcp/mcp-server-service';
import type { MemoryService } from '../memory/memory-service';
import { createMemoryTools } from '../memory/memory-tools';
import { createPermissionGate } from '../permissions/permission-gate';
import type { CommandOwner, SandboxService } from '../sandbox/sandbox-service';
import type { ShellService } from '../shell/shell-service';
import { createLoadSkillTool } from '../skills/load-skill-tool';
import type { SkillService } from '../skills/skill-service';
import type { AgentTool } from '../contract/agent-tool';
import { currentTimeTool } from '../tools/current-time-tool';
import type { ToolHost } from '../tools/tool-runner';
import type { ToolHooks } from '../hooks/tool-hooks';
import type { ToolSurfaceContext } from '../tools/tool-surface';
import { createWorkspaceTools } from '../workspace/workspace-tools';
import type { BuiltLater } from './built-later';

export interface ToolWiringDeps {
  readonly stores: Stores;
  readonly shell: ShellService;
  readonly sandbox: SandboxService;
  /** Wraps the writing workspace tools so a turn's first write takes its checkpoint. */
  readonly checkpoints: CheckpointService;
  readonly context: ContextRuntime;
  readonly memory: MemoryService;
  readonly mcp: McpServerService;
  readonly goals: BuiltLater<GoalService>;
  readonly agents: BuiltLater<AgentService>;
  readonly skills: BuiltLater<SkillService>;
  /** The person's hooks around each tool call (PreToolUse, PermissionRequest, PostToolUse). */
  readonly hooks?: ToolHooks;
}

export interface ToolWiring {
  /** The tool surface: every tool the agent of a session (or of a new session previewed) is offered. */
  readonly toolsIn: (surface: ToolSurfaceContext) => AgentTool[];
  /** What the agent really gets: for an existing session, narrowed by its child-agent definition, plus the agent tools. */
  readonly surfaceOf: (surface: ToolSurfaceContext) => AgentTool[];
  /** A session's tools (its surface narrowed by its agent, plus the agent tools) and the permission gate in front of them. */
  readonly toolHost: ToolHost;
}

/** Every tool Cairn's own agents are offered, behind the permission gate. */
export function wireTools(deps: ToolWiringDeps): ToolWiring {
  const { stores, shell, context, mcp } = deps;
  const modeOf = (sessionId: string) => stores.sessions.get(sessionId)?.permissionMode ?? 'ask';
  const gate = createPermissionGate({
    modeOf,
    allowedForSession: (sessionId, toolName) => stores.interactions.allowedForSession(sessionId, toolName),
  });
  const goalTools = createGoalTools(() => deps.goals.get(), stores.goals);
  const agentTools = createAgentTools(() => deps.agents.get());
  const memoryTools = createMemoryTools(deps.memory);
  const skillTool = createLoadSkillTool(() => deps.skills.get());
  const toolsIn = (surface: ToolSurfaceContext): AgentTool[] => {
    const root = surface.workspacePath;
    const confine = (owner: CommandOwner, cwd: string, options: { unsandboxed: boolean }) =>
      deps.sandbox.confine(stores.sessions.get(owner.sessionId)?.permissionMode ?? 'ask', cwd, owner, options);
    const workspace =
      root === null
        ? []
        : deps.checkpoints.guard(
            createWorkspaceTools({ root, modeOf, shell: { ...shell.toolOptions(), confine } }),
            root,
          );
    const servers = surface.sessionId === null ? [] : mcp.toolsFor(surface.sessionId);
    return [
      askUserTool,
      currentTimeTool,
      ...goalTools,
      ...context.tools,
      ...memoryTools,
      ...workspace,
      skillTool,
      ...servers,
    ].filter((tool) => gate.offersIn(surface.permissionMode, tool));
  };
  const surfaceOf = (surface: ToolSurfaceContext): AgentTool[] => {
    const own = toolsIn(surface);
    if (surface.sessionId === null) return own;
    return deps.agents.get().surface(
      surface.sessionId,
      own,
      agentTools.filter((tool) => gate.offersIn(surface.permissionMode, tool)),
    );
  };
  const sessionTools = (sessionId: string): AgentTool[] => {
    const session = stores.sessions.get(sessionId);
    if (session === null) return [];
    return surfaceOf({
      sessionId,
      workspacePath: session.workspacePath,
      permissionMode: session.permissionMode,
      connectionId: session.connectionId,
    });
  };
  const toolHost: ToolHost = {
    toolsFor: (sessionId) => sessionTools(sessionId),
    check: (sessionId, tool, input) => gate.check(sessionId, tool, input),
    prepare: (sessionId) => mcp.prepare(sessionId),
    ...(deps.hooks === undefined ? {} : { hooks: deps.hooks }),
  };
  return { toolsIn, surfaceOf, toolHost };
}
