import type { AcpAgentCommand, ModelTarget } from '../../../src-shared/connection-model';
import type { StoredConnection } from '../../storage/connection-store';
import type { SecretVault } from '../../storage/secret-vault';
import type { Stores } from '../../storage/stores';
import { findAgentProgram } from './acp-agent-command';
import { presetCommand, type PresetAccess } from './acp-presets';
import { findCodexBinary } from './codex-binary';
import { DEFAULT_CODEX_MODEL, type CodexTarget } from './codex-connection';
import type { ProviderEndpoint } from './provider-client';
import type { StreamTimeouts } from './providers';

/** A connection a run can use: where it points, which model, and how long to wait for it. */
export interface ResolvedTarget extends ProviderEndpoint {
  readonly connectionId: string;
  readonly modelId: string;
  readonly timeouts: StreamTimeouts;
}

export interface ConnectionTargetsDeps {
  readonly stores: Stores;
  readonly vault: SecretVault;
  /** The catalog's default target (a run without a model of its own uses its model on that connection). */
  readonly defaultTarget: () => ModelTarget;
  /** Provider retries for Codex connections (tests set 0); left to Codex when undefined. */
  readonly codexRetries?: number | undefined;
  /** More `-c key=value` settings for every Codex app-server (tests add an MCP server or a feature). */
  readonly codexConfig?: readonly string[] | undefined;
  /** Where preset ACP agents installed on demand live (`<dataDir>/agents`). */
  readonly dataDir?: string | undefined;
}

/**
 * Where a session's turns go, read from its connection as it is now: a model endpoint for the
 * built-in agent, the codex binary for Codex, the agent command for an ACP agent — or why not.
 */
export class ConnectionTargets {
  constructor(private readonly deps: ConnectionTargetsDeps) {}

  /** Where a session's run goes; an error when its connection no longer exists or has no model. */
  resolveTarget(connectionId: string, model: string | null): ResolvedTarget | { error: string } {
    const stored = this.deps.stores.connections.get(connectionId);
    if (stored === null)
      return { error: `This session's connection no longer exists. Pick another connection for it.` };
    if (!stored.enabled) return { error: `The connection "${stored.name}" is turned off in Settings.` };
    if (stored.providerType === 'codex')
      return { error: `"${stored.name}" is a Codex connection: Codex runs its turns itself.` };
    if (stored.providerType === 'acp')
      return { error: `"${stored.name}" is an ACP agent: the agent runs its turns itself.` };
    const fallback = this.deps.defaultTarget();
    const modelId =
      model ?? (fallback.connectionId === connectionId ? fallback.modelId : (stored.enabledModelIds[0] ?? null));
    if (modelId === null)
      return { error: `Pick a model for "${stored.name}" (Settings → Connections → Fetch models).` };
    const timeouts = { firstTokenMs: stored.firstTokenTimeoutSeconds * 1000, idleMs: stored.idleTimeoutSeconds * 1000 };
    return { connectionId, modelId, ...this.endpointOf(stored), timeouts };
  }

  /** Where a Codex session's turns go: the codex binary, its model and how it reaches the model. */
  codexTarget(connectionId: string, model: string | null): CodexTarget | { error: string } {
    const stored = this.deps.stores.connections.get(connectionId);
    if (stored === null)
      return { error: `This session's connection no longer exists. Pick another connection for it.` };
    if (!stored.enabled) return { error: `The connection "${stored.name}" is turned off in Settings.` };
    const binary = findCodexBinary(stored.codexBinary);
    if (binary === null && stored.codexBinary !== null) {
      return {
        error: `The codex binary set on "${stored.name}" is not there any more (${stored.codexBinary}). Fix the path in Settings → Connections, or clear it to find Codex automatically.`,
      };
    }
    if (binary === null)
      return {
        error:
          'Codex was not found: install it (npm install -g @openai/codex) or give the path of the codex binary on the connection in Settings → Connections.',
      };
    return {
      binary: binary.path,
      model: model ?? stored.enabledModelIds[0] ?? DEFAULT_CODEX_MODEL,
      baseUrl: stored.baseUrl,
      apiKey: stored.secretId === null ? null : this.deps.vault.get(stored.secretId),
      ...(this.deps.codexRetries === undefined ? {} : { retries: this.deps.codexRetries }),
      ...(this.deps.codexConfig === undefined ? {} : { extraConfig: this.deps.codexConfig }),
    };
  }

  /** The agent command an ACP connection's sessions run, found now. */
  acpAgent(connectionId: string): AcpAgentCommand | { error: string } {
    const stored = this.deps.stores.connections.get(connectionId);
    if (stored === null)
      return { error: `This session's connection no longer exists. Pick another connection for it.` };
    if (!stored.enabled) return { error: `The connection "${stored.name}" is turned off in Settings.` };
    if (stored.acpAgent === null)
      return { error: `"${stored.name}" has no agent command: set one in Settings → Connections.` };
    const preset = stored.acpAgent.preset;
    if (preset !== undefined)
      return presetCommand(preset, stored.acpAgent.env, this.accessOf(stored), this.deps.dataDir ?? null);
    const program = findAgentProgram(stored.acpAgent.command);
    if (program === null)
      return {
        error: `The agent program of "${stored.name}" is not there any more (${stored.acpAgent.command}). Fix it in Settings → Connections.`,
      };
    return { ...stored.acpAgent, command: program };
  }

  /** Whether a connection runs an ACP agent (its sessions run on the ACP backend). */
  isAcp(connectionId: string): boolean {
    return this.deps.stores.connections.get(connectionId)?.providerType === 'acp';
  }

  /** Whether a connection is a Codex connection (its sessions run on the Codex backend). */
  isCodex(connectionId: string): boolean {
    return this.deps.stores.connections.get(connectionId)?.providerType === 'codex';
  }

  /** The key and base URL a preset agent gets from its connection. */
  accessOf(stored: StoredConnection): PresetAccess {
    return { apiKey: stored.secretId === null ? null : this.deps.vault.get(stored.secretId), baseUrl: stored.baseUrl };
  }

  /** A model connection's endpoint with its key; a native agent's connection has none. */
  endpointOf(stored: StoredConnection): ProviderEndpoint {
    if (stored.providerType === 'codex' || stored.providerType === 'acp')
      throw new Error('A native agent connection has no model endpoint');
    return {
      providerType: stored.providerType,
      baseUrl: stored.baseUrl,
      apiKey: stored.secretId === null ? null : this.deps.vault.get(stored.secretId),
    };
  }
}
