/** Connections to model providers, as clients see them. A connection's API key never leaves the host. */

/** Providers the built-in agent calls for model steps. */
export const MODEL_PROVIDER_TYPES = ['openai', 'anthropic', 'ollama', 'openai_compatible'] as const;
export type ModelProviderType = (typeof MODEL_PROVIDER_TYPES)[number];
/** Every connection kind: the model providers, and the native agents that run the whole turn (Codex, any ACP agent). */
export const PROVIDER_TYPES = [...MODEL_PROVIDER_TYPES, 'codex', 'acp'] as const;
export type ProviderType = (typeof PROVIDER_TYPES)[number];

/** The built-in connection that runs the scripted agent: always there, no key needed. */
export const OFFLINE_DEMO_CONNECTION_ID = 'offline-demo';
export const OFFLINE_DEMO_MODEL_ID = 'scripted';

export interface ModelInfo {
  readonly modelId: string;
  readonly label: string;
  /** The context window the provider itself reports for the model (Ollama's `context_length`), when it reports one. */
  readonly contextLength?: number;
  /** List price, filled by the host where Cairn knows it; null when unknown. */
  readonly price?: ModelPrice | null;
}

/** What a model costs at list price, in USD per million tokens (zero for a local model). */
export interface ModelPrice {
  readonly inputPerMillion: number;
  readonly outputPerMillion: number;
}

export interface ConnectionRecord {
  readonly connectionId: string;
  readonly name: string;
  /** `scripted` only for the built-in Offline demo. */
  readonly providerType: ProviderType | 'scripted';
  /** Null means the provider's default address. */
  readonly baseUrl: string | null;
  readonly enabled: boolean;
  readonly enabledModelIds: readonly string[];
  readonly models: readonly ModelInfo[];
  readonly modelsFetchedAt: number | null;
  /** Whether an API key is stored; the key itself is never sent. */
  readonly hasApiKey: boolean;
  /** How long a model step waits for the first token before the run fails (seconds). */
  readonly firstTokenTimeoutSeconds: number;
  /** How long an answer that has begun may go silent before the run fails (seconds). */
  readonly idleTimeoutSeconds: number;
  /** The codex binary a Codex connection runs; null: found automatically (the bundled one, or on PATH). */
  readonly codexBinary: string | null;
  /** The agent command an ACP connection runs; null for every other kind. */
  readonly acpAgent: AcpAgentCommand | null;
  /** The last Test run on the connection, kept across restarts; null until it is first tested. */
  readonly lastTest: ConnectionLastTest | null;
  readonly builtIn: boolean;
  readonly revision: number;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** An ACP agent as the person entered it: the program (a full path or a name on PATH), its arguments and extra environment. */
export interface AcpAgentCommand {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /**
   * A known agent Cairn sets up itself: the host finds its program when it starts, and gives it the
   * connection's API key and base URL in the agent's own variables. Absent for a custom agent.
   */
  readonly preset?: AcpAgentPreset;
  /**
   * Absolute folders the agent may write when it runs inside the sandbox (Auto), beside the workspace
   * and its own state; none may open the sandbox's deny list.
   */
  readonly writableFolders?: readonly string[];
}

/** The agents Cairn knows how to start (each with its pinned npm package). */
export const ACP_PRESET_KINDS = ['claude', 'gemini', 'opencode'] as const;
export type AcpPresetKind = (typeof ACP_PRESET_KINDS)[number];

export interface AcpAgentPreset {
  readonly kind: AcpPresetKind;
  /** The model the agent is told to use (OpenCode needs one: the OpenAI-compatible server's model id); null: the agent's default. */
  readonly model: string | null;
}

/** The timeouts a new connection starts with: patient enough for a large model, or a local one loading. */
export const DEFAULT_FIRST_TOKEN_TIMEOUT_SECONDS = 120;
export const DEFAULT_IDLE_TIMEOUT_SECONDS = 60;
/** The range Settings accepts for either timeout. */
export const TIMEOUT_SECONDS_RANGE = { min: 1, max: 3600 } as const;

/** Where new sessions go. `modelId` is null for an agent that chooses its own model (an ACP or Codex connection with none ticked). */
export interface ModelTarget {
  readonly connectionId: string;
  readonly modelId: string | null;
}

/** Connections whose agent runs its own turns and may choose its own model: they can be the default with no model. */
export function agentChoosesModel(providerType: ProviderType | 'scripted'): boolean {
  return providerType === 'acp' || providerType === 'codex';
}

export type ConnectionVerdict = 'ok' | 'bad_key' | 'unreachable' | 'model_unknown' | 'server_error';

export interface ConnectionTestResult {
  readonly verdict: ConnectionVerdict;
  readonly message: string;
  readonly latencyMs: number;
}

/** A Test's result with when it ran (ms since the epoch), as the connection keeps it. */
export interface ConnectionLastTest extends ConnectionTestResult {
  readonly testedAt: number;
}

/** A local model server found on first run (Ollama or LM Studio answering on its usual port). */
export interface DiscoveredServer {
  readonly providerType: ModelProviderType;
  readonly name: string;
  readonly baseUrl: string;
  readonly models: readonly ModelInfo[];
}
