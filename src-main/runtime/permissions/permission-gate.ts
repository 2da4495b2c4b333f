import type { PermissionMode } from '../../../src-shared/model';
import type { AgentTool } from '../contract/agent-tool';
import type { GateVerdict } from '../tools/tool-runner';

export interface PermissionGateDeps {
  /** The session's mode now (it can change at any time). */
  modeOf(sessionId: string): PermissionMode;
  /** Whether the person allowed this tool for the rest of the session. */
  allowedForSession(sessionId: string, toolName: string): boolean;
}

/** Explore mode offers only the tools that change nothing. */
function offeredIn(mode: PermissionMode, tool: AgentTool): boolean {
  return tool.readOnly || mode !== 'explore';
}

/**
 * The permission modes: `explore` offers no tool that changes anything; `ask` asks the person before
 * each such call (showing the exact command or diff) unless they allowed the tool for the session;
 * `auto` runs them without asking — commands inside the sandbox (run_shell confines them), file
 * changes inside the workspace — and still asks before an MCP server's tool, which runs outside it;
 * `full` runs everything without asking.
 */
export function createPermissionGate(deps: PermissionGateDeps) {
  return {
    offers(sessionId: string, tool: AgentTool): boolean {
      return offeredIn(deps.modeOf(sessionId), tool);
    },
    /** Whether a session in this mode is offered the tool (for a session not created yet). */
    offersIn: offeredIn,
    async check(sessionId: string, tool: AgentTool, input: unknown): Promise<GateVerdict> {
      if (tool.readOnly) return { run: true };
      const mode = deps.modeOf(sessionId);
      if (mode === 'explore')
        return { refuse: `${tool.name} changes things, and this session is in Explore mode (read-only).` };
      if (mode === 'full' || deps.allowedForSession(sessionId, tool.name)) return { run: true };
      const preview = tool.preview === undefined ? null : await tool.preview(input);
      // Auto: whatever runs inside the sandbox or the workspace runs unasked; an MCP server's tool runs outside both.
      if (mode === 'auto' && preview?.kind !== 'mcp') return { run: true };
      if (preview === null)
        return {
          ask: {
            kind: 'permission',
            toolName: tool.name,
            summary: `Run ${tool.name}`,
            preview: { kind: 'command', command: JSON.stringify(input), cwd: '' },
          },
        };
      // Bad input is refused by the tool itself when it runs; nothing to approve.
      if (preview.kind === 'invalid') return { run: true };
      const summary =
        preview.kind === 'diff'
          ? `${tool.name === 'write_file' ? 'Write' : 'Edit'} ${preview.path}`
          : preview.kind === 'mcp'
            ? `Call ${preview.tool} on the MCP server ${preview.server}`
            : `Run ${preview.command.split('\n')[0]?.slice(0, 200) ?? ''}`;
      return { ask: { kind: 'permission', toolName: tool.name, summary, preview } };
    },
  };
}
