/** MCP servers: the person's own tool servers, spoken to through the Model Context Protocol. */

export const MCP_TRANSPORTS = ['stdio', 'http'] as const;
export type McpTransport = (typeof MCP_TRANSPORTS)[number];

/**
 * One environment variable (stdio) or HTTP header (Streamable HTTP). A secret's value lives in the
 * secret vault and never comes back: `value` is null and `hasValue` says whether one is stored.
 */
export interface McpSetting {
  readonly name: string;
  readonly secret: boolean;
  readonly value: string | null;
  readonly hasValue: boolean;
}

export type McpServerState = 'disabled' | 'stopped' | 'starting' | 'connected' | 'failed';

export interface McpToolInfo {
  /** The tool's name on its server. */
  readonly name: string;
  /** The name the agent sees (namespaced by server). */
  readonly agentName: string;
  readonly description: string;
  readonly readOnly: boolean;
}

export interface McpServerStatus {
  readonly state: McpServerState;
  /** Why it failed or stopped, for a person. */
  readonly message: string | null;
  /** The last lines the server wrote to stderr (stdio servers). */
  readonly stderrTail: string | null;
  readonly serverInfo: { readonly name: string; readonly version: string } | null;
  readonly tools: readonly McpToolInfo[];
}

export interface McpServerRecord {
  readonly serverId: string;
  readonly name: string;
  readonly transport: McpTransport;
  /** stdio */
  readonly command: string | null;
  readonly args: readonly string[];
  readonly cwd: string | null;
  readonly env: readonly McpSetting[];
  /** Streamable HTTP */
  readonly url: string | null;
  readonly headers: readonly McpSetting[];
  readonly enabled: boolean;
  readonly revision: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly status: McpServerStatus;
}

export interface McpTestResult {
  readonly serverId: string;
  readonly ok: boolean;
  readonly message: string | null;
  readonly stderrTail: string | null;
  readonly serverInfo: { readonly name: string; readonly version: string } | null;
  readonly tools: readonly McpToolInfo[];
}

/** Whether a server's tools are offered in one session (every enabled server is, until turned off there). */
export interface McpSessionServer {
  readonly serverId: string;
  readonly name: string;
  readonly enabled: boolean;
  readonly on: boolean;
}

/** A prompt template one of a session's servers offers (MCP prompts). */
export interface McpPromptInfo {
  readonly serverId: string;
  readonly serverName: string;
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly arguments: readonly { readonly name: string; readonly description: string; readonly required: boolean }[];
}

/** A resource one of a session's servers offers, which the person can attach to a message. */
export interface McpResourceInfo {
  readonly serverId: string;
  readonly serverName: string;
  readonly uri: string;
  readonly name: string;
  readonly description: string;
  readonly mimeType: string | null;
}
