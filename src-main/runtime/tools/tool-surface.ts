import type { PermissionMode } from '../../../src-shared/model';

/**
 * What decides which tools an agent has: an existing session (`sessionId`) or a new one being
 * previewed (`sessionId` null), its workspace, permission mode and connection.
 */
export interface ToolSurfaceContext {
  readonly sessionId: string | null;
  readonly workspacePath: string | null;
  readonly permissionMode: PermissionMode;
  readonly connectionId: string;
}

/**
 * The tools the agent of a context is offered: the names of the built-in agent's tools (built-in,
 * workspace, and any registered from outside such as MCP servers), or `native` when the connection
 * runs an agent with its own tools (Codex, the WorkHub's router) that Cairn's tools do not reach.
 */
export type ToolSurface =
  { readonly kind: 'tools'; readonly names: readonly string[] } | { readonly kind: 'native'; readonly message: string };
