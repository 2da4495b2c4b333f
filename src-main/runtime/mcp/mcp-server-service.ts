import { fail, ok, type Outcome } from '../../../src-shared/errors';
import type { McpServerRecord, McpSessionServer, McpSetting, McpTestResult } from '../../../src-shared/mcp-model';
import type { ParsedInput } from '../../../src-shared/operations';
import type { StoredMcpServer, StoredMcpSetting } from '../../storage/mcp-server-store';
import type { SecretVault } from '../../storage/secret-vault';
import type { Stores } from '../../storage/stores';
import type { EventBus } from '../ports/event-bus';
import type { Clock, Ids, Logger } from '../ports/ports';
import type { AgentTool } from '../contract/agent-tool';
import type { McpLaunch } from './mcp-client';
import { McpConnections, type McpBounds } from './mcp-connections';
import { answerElicitation, type AskPerson } from './mcp-elicitation';
import { mcpAgentTool } from './mcp-agent-tool';
import { promptText, resourceText, sessionCatalog, type McpCatalogDeps } from './mcp-session-catalog';

export interface McpServerServiceDeps {
  readonly stores: Pick<Stores, 'mcpServers' | 'sessions' | 'transaction'>;
  readonly vault: SecretVault;
  readonly bus: EventBus;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly logger: Logger;
  readonly bounds?: Partial<McpBounds>;
  /** Puts a server's question (elicitation) to the person during a call; absent: servers that ask are refused. */
  readonly ask?: AskPerson;
}

type SettingInput = { readonly name: string; readonly secret: boolean; readonly value?: string | undefined };
type SettingKind = 'env' | 'header';

/**
 * The person's MCP servers: their settings (revisioned; secret values in the vault), their live
 * connections and status, which ones each session uses, and their tools as agent tools.
 */
export class McpServerService {
  readonly connections: McpConnections;

  constructor(private readonly deps: McpServerServiceDeps) {
    const ask = deps.ask;
    this.connections = new McpConnections({
      launchOf: (serverId) => this.launchOf(serverId),
      onStatus: (serverId) => this.publish(serverId),
      logger: deps.logger,
      now: () => deps.clock.now(),
      ...(deps.bounds === undefined ? {} : { bounds: deps.bounds }),
      ...(ask === undefined ? {} : { elicit: (elicitation) => answerElicitation(ask, elicitation) }),
    });
  }

  list(): Outcome<{ servers: McpServerRecord[] }, never> {
    return ok({ servers: this.deps.stores.mcpServers.list().map((server) => this.recordOf(server)) });
  }

  create(input: ParsedInput<'mcp.server.create'>): Outcome<{ server: McpServerRecord }, 'invalid_input'> {
    const { stores, ids, clock } = this.deps;
    if (stores.mcpServers.byName(input.name) !== null)
      return fail('invalid_input', `There is already a server named "${input.name}". Give this one another name.`);
    const serverId = ids.next('mcp_server');
    const env = this.sealSettings(serverId, 'env', [], input.env ?? []);
    const headers = this.sealSettings(serverId, 'header', [], input.headers ?? []);
    if (typeof env === 'string') return fail('invalid_input', env);
    if (typeof headers === 'string') return fail('invalid_input', headers);
    const stored = stores.mcpServers.insert(
      {
        serverId,
        name: input.name,
        transport: input.transport,
        command: input.transport === 'stdio' ? (input.command ?? null) : null,
        args: input.transport === 'stdio' ? (input.args ?? []) : [],
        cwd: input.transport === 'stdio' ? (input.cwd ?? null) : null,
        env: input.transport === 'stdio' ? env : [],
        url: input.transport === 'http' ? (input.url ?? null) : null,
        headers: input.transport === 'http' ? headers : [],
        enabled: input.enabled ?? true,
      },
      clock.now(),
    );
    this.publish(serverId);
    return ok({ server: this.recordOf(stored) });
  }

  async update(
    input: ParsedInput<'mcp.server.update'>,
  ): Promise<Outcome<{ server: McpServerRecord }, 'invalid_input' | 'not_found' | 'revision_conflict'>> {
    const { stores, clock } = this.deps;
    const current = stores.mcpServers.get(input.serverId);
    if (current === null) return missing();
    if (current.revision !== input.expectedRevision) return stale(current.revision, input.expectedRevision);
    if (input.name !== undefined) {
      const named = stores.mcpServers.byName(input.name);
      if (named !== null && named.serverId !== current.serverId)
        return fail('invalid_input', `There is already a server named "${input.name}".`);
    }
    const env =
      input.env === undefined ? current.env : this.sealSettings(current.serverId, 'env', current.env, input.env);
    const headers =
      input.headers === undefined
        ? current.headers
        : this.sealSettings(current.serverId, 'header', current.headers, input.headers);
    if (typeof env === 'string') return fail('invalid_input', env);
    if (typeof headers === 'string') return fail('invalid_input', headers);
    const stdio = current.transport === 'stdio';
    const updated = stores.mcpServers.update(
      current.serverId,
      {
        ...(input.name === undefined ? {} : { name: input.name }),
        ...(stdio && input.command !== undefined ? { command: input.command } : {}),
        ...(stdio && input.args !== undefined ? { args: input.args } : {}),
        ...(stdio && input.cwd !== undefined ? { cwd: input.cwd } : {}),
        ...(stdio ? { env } : {}),
        ...(!stdio && input.url !== undefined ? { url: input.url } : {}),
        ...(!stdio ? { headers } : {}),
      },
      clock.now(),
    );
    // New settings take effect on the next use.
    await this.connections.stop(current.serverId);
    this.publish(current.serverId);
    return ok({ server: this.recordOf(updated) });
  }

  async setEnabled(
    serverId: string,
    enabled: boolean,
    expectedRevision: number | undefined,
  ): Promise<Outcome<{ server: McpServerRecord }, 'not_found' | 'revision_conflict'>> {
    const current = this.deps.stores.mcpServers.get(serverId);
    if (current === null) return missing();
    if (expectedRevision !== undefined && current.revision !== expectedRevision)
      return stale(current.revision, expectedRevision);
    const updated =
      current.enabled === enabled
        ? current
        : this.deps.stores.mcpServers.update(serverId, { enabled }, this.deps.clock.now());
    if (!enabled) await this.connections.stop(serverId);
    this.publish(serverId);
    if (enabled) void this.connections.ensure(serverId);
    return ok({ server: this.recordOf(updated) });
  }

  async remove(
    serverId: string,
    expectedRevision: number | undefined,
  ): Promise<Outcome<{ serverId: string; removed: true }, 'not_found' | 'revision_conflict'>> {
    const current = this.deps.stores.mcpServers.get(serverId);
    if (current === null) return missing();
    if (expectedRevision !== undefined && current.revision !== expectedRevision)
      return stale(current.revision, expectedRevision);
    await this.connections.stop(serverId);
    this.deps.stores.mcpServers.remove(serverId);
    for (const setting of [
      ...current.env.map((s) => ['env', s] as const),
      ...current.headers.map((s) => ['header', s] as const),
    ]) {
      if (setting[1].secret) this.deps.vault.delete(secretIdOf(serverId, setting[0], setting[1].name));
    }
    this.deps.bus.publish({ kind: 'mcp.server.removed', serverId });
    return ok({ serverId, removed: true });
  }

  async test(serverId: string): Promise<Outcome<McpTestResult, 'not_found'>> {
    const launch = this.launchOf(serverId);
    if (launch === null) return missing();
    const result = await this.connections.test(launch);
    // It works now: a server that failed to start earlier is tried again on its next use.
    if (result.ok) this.connections.forgetStartFailure(serverId);
    return ok(result);
  }

  sessionServers(sessionId: string): Outcome<{ sessionId: string; servers: McpSessionServer[] }, 'not_found'> {
    if (this.deps.stores.sessions.get(sessionId) === null) return fail('not_found', 'That session does not exist.');
    const choices = this.deps.stores.mcpServers.sessionChoices(sessionId);
    const servers = this.deps.stores.mcpServers.list().map((server) => ({
      serverId: server.serverId,
      name: server.name,
      enabled: server.enabled,
      on: server.enabled && (choices.get(server.serverId) ?? true),
    }));
    return ok({ sessionId, servers });
  }

  setSessionServer(
    sessionId: string,
    serverId: string,
    on: boolean,
  ): Outcome<{ sessionId: string; servers: McpSessionServer[] }, 'not_found'> {
    if (this.deps.stores.sessions.get(sessionId) === null) return fail('not_found', 'That session does not exist.');
    if (this.deps.stores.mcpServers.get(serverId) === null) return missing();
    this.deps.stores.mcpServers.setSessionChoice(sessionId, serverId, on);
    return this.sessionServers(sessionId);
  }

  private get catalogDeps(): McpCatalogDeps {
    return {
      serversOf: (sessionId) => (this.deps.stores.sessions.get(sessionId) === null ? null : this.serversOf(sessionId)),
      ensure: (serverId) => this.connections.ensure(serverId),
      timeoutMs: this.connections.connectMs,
    };
  }

  catalog(sessionId: string) {
    return sessionCatalog(this.catalogDeps, sessionId);
  }

  prompt(input: ParsedInput<'mcp.prompt.get'>) {
    return promptText(this.catalogDeps, input);
  }

  resource(input: ParsedInput<'mcp.resource.read'>) {
    return resourceText(this.catalogDeps, input);
  }

  /** The servers a session uses now: enabled, and not turned off in that session. */
  private serversOf(sessionId: string): StoredMcpServer[] {
    const choices = this.deps.stores.mcpServers.sessionChoices(sessionId);
    return this.deps.stores.mcpServers
      .list()
      .filter((server) => server.enabled && (choices.get(server.serverId) ?? true));
  }

  /** How to start or reach each MCP server the session has on (with its secrets), for an agent that connects to them itself (an ACP agent). */
  launchesFor(sessionId: string): McpLaunch[] {
    return this.serversOf(sessionId).flatMap((server) => this.launchOf(server.serverId) ?? []);
  }

  /** Connects the session's servers that are not connected yet (bounded; a failure leaves that server's tools out). */
  async prepare(sessionId: string): Promise<void> {
    await Promise.all(this.serversOf(sessionId).map((server) => this.connections.ensure(server.serverId)));
  }

  /** The tools of the session's connected servers, as the agent sees them. */
  toolsFor(sessionId: string): AgentTool[] {
    return this.serversOf(sessionId).flatMap((server) =>
      this.connections
        .connectedTools(server.serverId)
        .map((tool) => mcpAgentTool({ serverId: server.serverId, serverName: server.name, tool }, this.connections)),
    );
  }

  /** At host start: enabled servers are connected again (in the background). */
  reconnectEnabled(): void {
    for (const server of this.deps.stores.mcpServers.list())
      if (server.enabled) void this.connections.ensure(server.serverId);
  }

  shutdown(): Promise<void> {
    return this.connections.closeAll();
  }

  private launchOf(serverId: string): McpLaunch | null {
    const server = this.deps.stores.mcpServers.get(serverId);
    if (server === null) return null;
    const secrets: string[] = [];
    const resolve = (kind: SettingKind, settings: readonly StoredMcpSetting[]) =>
      Object.fromEntries(
        settings.map((setting) => {
          const value = setting.secret
            ? (this.deps.vault.get(secretIdOf(serverId, kind, setting.name)) ?? '')
            : (setting.value ?? '');
          if (setting.secret && value !== '') secrets.push(value);
          return [setting.name, value];
        }),
      );
    return {
      serverId,
      name: server.name,
      transport: server.transport,
      command: server.command,
      args: server.args,
      cwd: server.cwd,
      env: resolve('env', server.env),
      url: server.url,
      headers: resolve('header', server.headers),
      secrets,
    };
  }

  /** Puts secret values in the vault and returns what the database keeps, or why the input is refused. */
  private sealSettings(
    serverId: string,
    kind: SettingKind,
    current: readonly StoredMcpSetting[],
    next: readonly SettingInput[],
  ): StoredMcpSetting[] | string {
    for (const setting of next) {
      if (
        setting.secret &&
        setting.value === undefined &&
        !current.some((old) => old.secret && old.name === setting.name)
      ) {
        return `Give a value for the secret ${kind === 'env' ? 'variable' : 'header'} ${setting.name}.`;
      }
    }
    for (const old of current) {
      const kept = next.find((setting) => setting.name === old.name);
      if (old.secret && (kept === undefined || !kept.secret))
        this.deps.vault.delete(secretIdOf(serverId, kind, old.name));
    }
    return next.map((setting) => {
      if (setting.secret && setting.value !== undefined)
        this.deps.vault.put(secretIdOf(serverId, kind, setting.name), setting.value);
      return { name: setting.name, secret: setting.secret, value: setting.secret ? null : (setting.value ?? '') };
    });
  }

  private recordOf(server: StoredMcpServer): McpServerRecord {
    const view =
      (kind: SettingKind) =>
      (setting: StoredMcpSetting): McpSetting => ({
        name: setting.name,
        secret: setting.secret,
        value: setting.secret ? null : setting.value,
        hasValue: setting.secret
          ? this.deps.vault.get(secretIdOf(server.serverId, kind, setting.name)) !== null
          : setting.value !== null,
      });
    return {
      serverId: server.serverId,
      name: server.name,
      transport: server.transport,
      command: server.command,
      args: server.args,
      cwd: server.cwd,
      env: server.env.map(view('env')),
      url: server.url,
      headers: server.headers.map(view('header')),
      enabled: server.enabled,
      revision: server.revision,
      createdAt: server.createdAt,
      updatedAt: server.updatedAt,
      status: this.connections.status(server.serverId, server.enabled),
    };
  }

  private publish(serverId: string): void {
    const server = this.deps.stores.mcpServers.get(serverId);
    if (server !== null) this.deps.bus.publish({ kind: 'mcp.server.changed', server: this.recordOf(server) });
  }
}

function secretIdOf(serverId: string, kind: SettingKind, name: string): string {
  return `mcp-${serverId}-${kind}-${name}`;
}

function missing() {
  return fail('not_found', 'That MCP server does not exist (it may have been removed).');
}

function stale(current: number, expected: number) {
  return fail(
    'revision_conflict',
    `This server was changed elsewhere (revision ${current}, you had ${expected}). Reload it and try again.`,
  );
}
