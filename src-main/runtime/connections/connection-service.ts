import os from 'node:os';
import type {
  AcpAgentCommand,
  ConnectionRecord,
  ConnectionTestResult,
  DiscoveredServer,
  ModelInfo,
  ModelProviderType,
  ModelTarget,
  ProviderType,
} from '../../../src-shared/connection-model';
import {
  DEFAULT_FIRST_TOKEN_TIMEOUT_SECONDS,
  DEFAULT_IDLE_TIMEOUT_SECONDS,
  OFFLINE_DEMO_CONNECTION_ID,
} from '../../../src-shared/connection-model';
import { fail, ok, type Outcome } from '../../../src-shared/errors';
import type { ConnectionCatalog } from '../../../src-shared/operations';
import type { StoredConnection } from '../../storage/connection-store';
import type { SecretVault } from '../../storage/secret-vault';
import type { Stores } from '../../storage/stores';
import type { EventBus } from '../ports/event-bus';
import { acpAgentProblem } from './acp-agent-command';
import { presetCommand, type PresetAccess } from './acp-presets';
import { CODEX_MODELS, DEFAULT_CODEX_MODEL, testCodexConnection } from './codex-connection';
import type { ReportedWindows } from '../context/reported-windows';
import type { Clock, Ids, Logger } from '../ports/ports';
import { checkAgentFolders, storedSandboxSettings } from '../sandbox/sandbox-settings';
import {
  builtInRefusal,
  codexBinaryRefusal,
  connectionRecordOf,
  defaultModelRefusal,
  missingConnection,
  OFFLINE_DEMO_CONNECTION,
  OFFLINE_DEMO_TARGET,
  staleRevision,
  type AcpAgentInput,
  type CreateConnectionRequest,
  type UpdateConnectionRequest,
} from './connection-records';
import { ConnectionTargets } from './connection-targets';
import type { ProviderClient } from './provider-client';

export interface ConnectionServiceDeps {
  readonly stores: Stores;
  readonly vault: SecretVault;
  readonly bus: EventBus;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly logger: Logger;
  readonly providers: ProviderClient;
  /** Local servers probed on first run (Ollama on 11434, LM Studio on 1234). */
  readonly discoveryProbes: readonly { providerType: ModelProviderType; name: string; baseUrl: string }[];
  /** Provider retries for Codex connections (tests set 0); left to Codex when undefined. */
  readonly codexRetries?: number;
  /** More `-c key=value` settings for every Codex app-server (tests add an MCP server or a feature). */
  readonly codexConfig?: readonly string[];
  readonly discoveryTimeoutMs?: number;
  /** Asks model servers for the windows they report (Ollama), when models are fetched. */
  readonly reported?: ReportedWindows | undefined;
  /** The models a Codex connection's app-server lists (`model/list`); throws when it does not answer. */
  readonly codexModels?: (connectionId: string) => Promise<readonly ModelInfo[]>;
  /**
   * Settings → Test on an ACP connection: starts the agent and asks `initialize` (the ACP backend's
   * `testAcpAgent`, handed down by the composition root: connections sit below the backends).
   */
  readonly testAcpAgent: (agent: AcpAgentCommand) => Promise<ConnectionTestResult>;
  /** Where preset ACP agents installed on demand live (`<dataDir>/agents`). */
  readonly dataDir?: string;
}

const DEFAULT_TARGET_KEY = 'default_target';
const CATALOG_REVISION_KEY = 'catalog_revision';

/**
 * The connection catalog: connections to model providers, their keys (through the vault), the default
 * target, and the checks a person runs from Settings. Every change bumps a revision.
 */
export class ConnectionService {
  /** A Codex connection's `model/list`, kept while what it depends on (binary, base URL, key) is unchanged. */
  private readonly codexModelCache = new Map<string, { readonly key: string; readonly models: readonly ModelInfo[] }>();

  /** Where sessions' turns go, from their connections as they are now. */
  readonly targets: ConnectionTargets;

  constructor(private readonly deps: ConnectionServiceDeps) {
    this.targets = new ConnectionTargets({
      stores: deps.stores,
      vault: deps.vault,
      defaultTarget: () => this.defaultTarget(),
      codexRetries: deps.codexRetries,
      codexConfig: deps.codexConfig,
      dataDir: deps.dataDir,
    });
  }

  list(): ConnectionCatalog {
    const { stores } = this.deps;
    return {
      connections: [OFFLINE_DEMO_CONNECTION, ...stores.connections.list().map((stored) => connectionRecordOf(stored))],
      defaultTarget: this.defaultTarget(),
      catalogRevision: stores.settings.get<number>(CATALOG_REVISION_KEY) ?? 0,
    };
  }

  /** A connection as clients see it, or null. */
  get(connectionId: string): ConnectionRecord | null {
    if (connectionId === OFFLINE_DEMO_CONNECTION_ID) return OFFLINE_DEMO_CONNECTION;
    const stored = this.deps.stores.connections.get(connectionId);
    return stored === null ? null : connectionRecordOf(stored);
  }

  defaultTarget(): ModelTarget {
    const target = this.deps.stores.settings.get<ModelTarget>(DEFAULT_TARGET_KEY);
    if (target === null || this.get(target.connectionId) === null) return OFFLINE_DEMO_TARGET;
    return target;
  }

  create(request: CreateConnectionRequest): Outcome<{ connection: ConnectionRecord }, 'invalid_input'> {
    const { stores, vault, clock, ids } = this.deps;
    if (request.providerType === 'openai_compatible' && request.baseUrl === undefined) {
      return fail(
        'invalid_input',
        'An OpenAI-compatible connection needs the server address (for example http://127.0.0.1:1234/v1).',
      );
    }
    const binaryProblem =
      request.codexBinary === undefined ? null : codexBinaryRefusal(request.providerType, request.codexBinary);
    if (binaryProblem !== null) return fail('invalid_input', binaryProblem);
    const acpAgent = this.agentOf(request.providerType, request.acpAgent, {
      apiKey: request.apiKey ?? null,
      baseUrl: request.baseUrl ?? null,
    });
    if ('error' in acpAgent) return fail('invalid_input', acpAgent.error);
    const connectionId = ids.next('connection');
    let secretId: string | null = null;
    if (request.apiKey !== undefined) {
      secretId = `key-${connectionId}`;
      vault.put(secretId, request.apiKey);
    }
    const stored = stores.transaction(() => {
      const inserted = stores.connections.insert({
        connectionId,
        name: request.name,
        providerType: request.providerType,
        baseUrl: request.baseUrl ?? null,
        enabledModelIds: request.enabledModelIds ?? (request.providerType === 'codex' ? [DEFAULT_CODEX_MODEL] : []),
        secretId,
        firstTokenTimeoutSeconds: request.firstTokenTimeoutSeconds ?? DEFAULT_FIRST_TOKEN_TIMEOUT_SECONDS,
        idleTimeoutSeconds: request.idleTimeoutSeconds ?? DEFAULT_IDLE_TIMEOUT_SECONDS,
        codexBinary: request.codexBinary ?? null,
        acpAgent: acpAgent.agent,
        now: clock.now(),
      });
      this.bumpCatalog();
      return inserted;
    });
    this.announce();
    return ok({ connection: connectionRecordOf(stored) });
  }

  update(request: UpdateConnectionRequest) {
    const { stores, vault, clock } = this.deps;
    if (request.connectionId === OFFLINE_DEMO_CONNECTION_ID) return builtInRefusal();
    const current = stores.connections.get(request.connectionId);
    if (current === null) return missingConnection();
    if (current.revision !== request.expectedRevision) return staleRevision(current.revision, request.expectedRevision);
    const binaryProblem =
      request.codexBinary == null ? null : codexBinaryRefusal(current.providerType, request.codexBinary);
    if (binaryProblem !== null) return fail('invalid_input', binaryProblem);
    const acpAgent =
      request.acpAgent === undefined
        ? { agent: null }
        : this.agentOf(current.providerType, request.acpAgent, {
            apiKey: null,
            baseUrl: request.baseUrl === undefined ? current.baseUrl : request.baseUrl,
          });
    if ('error' in acpAgent) return fail('invalid_input', acpAgent.error);
    let secretId = current.secretId;
    if (request.apiKey !== undefined) {
      if (request.apiKey === null) {
        if (secretId !== null) vault.delete(secretId);
        secretId = null;
      } else {
        secretId = current.secretId ?? `key-${current.connectionId}`;
        vault.put(secretId, request.apiKey);
      }
    }
    const stored = stores.transaction(() => {
      const updated = stores.connections.update(
        request.connectionId,
        {
          ...(request.name === undefined ? {} : { name: request.name }),
          ...(request.baseUrl === undefined ? {} : { baseUrl: request.baseUrl }),
          ...(request.enabled === undefined ? {} : { enabled: request.enabled }),
          ...(request.enabledModelIds === undefined ? {} : { enabledModelIds: request.enabledModelIds }),
          ...(request.firstTokenTimeoutSeconds === undefined
            ? {}
            : { firstTokenTimeoutSeconds: request.firstTokenTimeoutSeconds }),
          ...(request.idleTimeoutSeconds === undefined ? {} : { idleTimeoutSeconds: request.idleTimeoutSeconds }),
          ...(request.codexBinary === undefined ? {} : { codexBinary: request.codexBinary }),
          ...(acpAgent.agent === null ? {} : { acpAgent: acpAgent.agent }),
          secretId,
        },
        clock.now(),
      );
      this.bumpCatalog();
      return updated;
    });
    this.announce();
    return ok({ connection: connectionRecordOf(stored) });
  }

  /** Removes a connection. Sessions bound to it keep its id and say it is gone; nothing re-binds them. */
  remove(
    connectionId: string,
    expectedRevision: number | undefined,
  ): Outcome<{ connectionId: string; removed: true }, 'not_found' | 'operation_unavailable' | 'revision_conflict'> {
    const { stores, vault } = this.deps;
    if (connectionId === OFFLINE_DEMO_CONNECTION_ID) return builtInRefusal();
    const current = stores.connections.get(connectionId);
    if (current === null) return missingConnection();
    if (expectedRevision !== undefined && current.revision !== expectedRevision) {
      return staleRevision(current.revision, expectedRevision);
    }
    stores.transaction(() => {
      stores.connections.remove(connectionId);
      if (stores.settings.get<ModelTarget>(DEFAULT_TARGET_KEY)?.connectionId === connectionId) {
        stores.settings.set(DEFAULT_TARGET_KEY, OFFLINE_DEMO_TARGET);
      }
      this.bumpCatalog();
    });
    if (current.secretId !== null) vault.delete(current.secretId);
    this.announce();
    return ok({ connectionId, removed: true });
  }

  /** Tests a connection and keeps the result on it (announced, so every window's list shows it). */
  async test(connectionId: string, modelId: string | undefined): Promise<Outcome<ConnectionTestResult, 'not_found'>> {
    if (connectionId === OFFLINE_DEMO_CONNECTION_ID) {
      return ok({ verdict: 'ok', message: 'The Offline demo is built in and always available.', latencyMs: 0 });
    }
    const stored = this.deps.stores.connections.get(connectionId);
    if (stored === null) return missingConnection();
    const result = await this.check(stored, modelId);
    const { stores, clock } = this.deps;
    const kept = stores.transaction(() => {
      const recorded = stores.connections.recordTest(connectionId, { ...result, testedAt: clock.now() });
      if (recorded) this.bumpCatalog();
      return recorded;
    });
    if (kept) this.announce();
    return ok(result);
  }

  private async check(stored: StoredConnection, modelId: string | undefined): Promise<ConnectionTestResult> {
    if (stored.providerType === 'acp') {
      const agent = this.targets.acpAgent(stored.connectionId);
      if ('error' in agent) return { verdict: 'unreachable', message: agent.error, latencyMs: 0 };
      return this.deps.testAcpAgent(agent);
    }
    if (stored.providerType === 'codex')
      return testCodexConnection(stored.codexBinary, { baseUrl: stored.baseUrl, hasKey: stored.secretId !== null });
    const endpoint = this.targets.endpointOf(stored);
    return this.deps.providers.testConnection(
      modelId === undefined ? endpoint : { ...endpoint, modelId },
      AbortSignal.timeout(15_000),
    );
  }

  async fetchModels(
    connectionId: string,
  ): Promise<Outcome<{ connection: ConnectionRecord; notice: string | null }, 'not_found' | 'provider_error'>> {
    const { stores, clock, logger } = this.deps;
    if (connectionId === OFFLINE_DEMO_CONNECTION_ID) return ok({ connection: OFFLINE_DEMO_CONNECTION, notice: null });
    const stored = stores.connections.get(connectionId);
    if (stored === null) return missingConnection();
    let models: readonly ModelInfo[];
    let notice: string | null = null;
    try {
      if (stored.providerType === 'acp') models = [];
      else if (stored.providerType === 'codex') ({ models, notice } = await this.codexModels(stored));
      else models = await this.deps.providers.listModels(this.targets.endpointOf(stored), AbortSignal.timeout(15_000));
    } catch (error) {
      logger.warn('Fetching models failed', {
        connectionId,
        error: error instanceof Error ? error.message : String(error),
      });
      return fail(
        'provider_error',
        `Could not list the models of ${stored.name}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (stored.providerType === 'ollama' && this.deps.reported !== undefined) {
      const lengths = await this.deps.reported.askMany(
        connectionId,
        stored.revision,
        this.targets.endpointOf(stored),
        models.map((model) => model.modelId),
      );
      models = models.map((model) => {
        const contextLength = lengths.get(model.modelId);
        return contextLength === undefined || contextLength === null ? model : { ...model, contextLength };
      });
    }
    const latest = stores.connections.get(connectionId);
    if (latest === null) return missingConnection();
    const updated = stores.transaction(() => {
      const enabled =
        latest.enabledModelIds.length > 0 ? latest.enabledModelIds : models.slice(0, 1).map((model) => model.modelId);
      const result = stores.connections.update(
        connectionId,
        { models: { models, fetchedAt: clock.now() }, enabledModelIds: enabled },
        clock.now(),
      );
      this.bumpCatalog();
      return result;
    });
    this.announce();
    return ok({ connection: connectionRecordOf(updated), notice });
  }

  /** A Codex connection's models from its app-server's `model/list` (cached), else the list Cairn knows, saying so. */
  private async codexModels(
    stored: StoredConnection,
  ): Promise<{ models: readonly ModelInfo[]; notice: string | null }> {
    const key = JSON.stringify([stored.codexBinary, stored.baseUrl, stored.secretId]);
    const cached = this.codexModelCache.get(stored.connectionId);
    if (cached?.key === key) return { models: cached.models, notice: null };
    try {
      if (this.deps.codexModels === undefined) throw new Error('no Codex backend in this host');
      const models = await this.deps.codexModels(stored.connectionId);
      this.codexModelCache.set(stored.connectionId, { key, models });
      return { models, notice: null };
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      this.deps.logger.warn('Codex did not list its models; using the list Cairn knows', {
        connectionId: stored.connectionId,
        error: why,
      });
      return {
        models: CODEX_MODELS,
        notice: `Codex did not list its models (${why}), so these are the models Cairn knows codex 0.171 ships.`,
      };
    }
  }

  setDefault(target: ModelTarget, expectedCatalogRevision: number | undefined) {
    const { stores } = this.deps;
    const connection = this.get(target.connectionId);
    if (connection === null) return missingConnection();
    const revision = stores.settings.get<number>(CATALOG_REVISION_KEY) ?? 0;
    if (expectedCatalogRevision !== undefined && expectedCatalogRevision !== revision) {
      return staleRevision(revision, expectedCatalogRevision);
    }
    const refusal = defaultModelRefusal(connection, target.modelId);
    if (refusal !== null) return fail('invalid_input', refusal);
    const catalogRevision = stores.transaction(() => {
      stores.settings.set(DEFAULT_TARGET_KEY, target);
      return this.bumpCatalog();
    });
    this.announce();
    return ok({ defaultTarget: target, catalogRevision });
  }

  /** Probes the usual local model servers, briefly; offers what answers. */
  async discover(): Promise<{ servers: DiscoveredServer[] }> {
    const timeout = this.deps.discoveryTimeoutMs ?? 800;
    const found = await Promise.all(
      this.deps.discoveryProbes.map(async (probe) => {
        try {
          const models = await this.deps.providers.listModels(
            { providerType: probe.providerType, baseUrl: probe.baseUrl, apiKey: null },
            AbortSignal.timeout(timeout),
          );
          return [{ ...probe, models }];
        } catch {
          return [];
        }
      }),
    );
    return { servers: found.flat() };
  }

  /**
   * The agent command a connection stores: a custom one checked (its program exists), a preset one
   * with the program found now (installed or not, the preset is kept: its program is found again at
   * each start), with its writable folders checked; an error when the kind of connection and the agent
   * do not go together.
   */
  private agentOf(
    providerType: ProviderType,
    input: AcpAgentInput | undefined,
    access: PresetAccess,
  ): { agent: AcpAgentCommand | null } | { error: string } {
    if (providerType !== 'acp')
      return input === undefined ? { agent: null } : { error: 'Only an ACP connection runs an agent command.' };
    if (input === undefined) return { error: 'An ACP connection needs the agent command to run.' };
    const folders = this.agentFolders(input);
    if ('error' in folders) return folders;
    const agent = this.commandOf(input, access);
    if ('error' in agent) return agent;
    const { writableFolders: _typed, ...rest } = agent.agent;
    return { agent: folders.value.length === 0 ? rest : { ...rest, writableFolders: folders.value } };
  }

  /** The agent's writable folders, checked against the sandbox's deny list (nothing is saved when one is wrong). */
  private agentFolders(input: AcpAgentInput): { value: string[] } | { error: string } {
    const typed = input.writableFolders ?? [];
    if (typed.length === 0) return { value: [] };
    const checked = checkAgentFolders(typed, {
      home: os.homedir(),
      agentHome: input.env.HOME ?? null,
      dataDir: this.deps.dataDir ?? null,
      deniedPaths: storedSandboxSettings(this.deps.stores.settings).deniedPaths,
    });
    return checked.ok ? { value: checked.value } : { error: checked.message };
  }

  private commandOf(input: AcpAgentInput, access: PresetAccess): { agent: AcpAgentCommand } | { error: string } {
    if ('preset' in input && !('command' in input)) {
      const found = presetCommand(input.preset, input.env, access, this.deps.dataDir ?? null);
      // Not installed yet is fine: the program is looked for again when a session starts.
      const agent: AcpAgentCommand =
        'error' in found
          ? { command: input.preset.kind, args: [], env: input.env, preset: input.preset }
          : { ...found, env: input.env };
      return { agent };
    }
    const problem = acpAgentProblem(input);
    return problem === null ? { agent: input } : { error: problem };
  }

  private bumpCatalog(): number {
    const next = (this.deps.stores.settings.get<number>(CATALOG_REVISION_KEY) ?? 0) + 1;
    this.deps.stores.settings.set(CATALOG_REVISION_KEY, next);
    return next;
  }

  private announce(): void {
    this.deps.bus.publish({
      kind: 'connections.changed',
      catalogRevision: this.deps.stores.settings.get<number>(CATALOG_REVISION_KEY) ?? 0,
    });
  }
}
