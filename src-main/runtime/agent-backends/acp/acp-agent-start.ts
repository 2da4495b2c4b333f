import type {
  CreateTerminalRequest,
  CreateTerminalResponse,
  ReadTextFileRequest,
  SessionConfigOption,
  SessionModeState,
  WriteTextFileRequest,
} from '@agentclientprotocol/sdk';
import type { AcpAgentCommand } from '../../../../src-shared/connection-model';
import type { PermissionMode } from '../../../../src-shared/model';
import type { PreparedSandbox } from '../../sandbox/sandbox-service';
import { childEnvironment } from '../../shell/child-environment';
import { AgentBackendError } from '../../contract/agent-backend';
import type { AcpBackendDeps, SessionState } from './acp-backend-deps';
import { loadAcpAgent } from './acp-agent-loader';
import { bounded, errorText, type AcpBounds } from './acp-bounds';
import { acpMcpServers } from './acp-mcp';
import { ACP_MODE_SELECTOR } from './acp-session-offers';
import { isAuthRequired } from './acp-auth-methods';
import { AcpTerminals } from './acp-terminals';
import { agentModeFor } from './acp-turn-policy';
import { agentModeIn, isModeSelector } from '../../../../src-shared/acp-modes';
import type { LiveAcpAgent } from './live-acp-agent';
import { forkAgentSession } from './acp-session-fork';

/**
 * How the agent session a start drives came about: reloaded (`session/load`), a new one because the
 * earlier could not be reloaded (`lost`), the first for this Cairn session (`first`: a new session, or a
 * branch that could not be forked), or a fork of its source's agent session at the branch point (`forked`).
 */
export type AgentSessionStart = 'reloaded' | 'lost' | 'first' | 'forked';

/** Starting an ACP agent for a session: its process, `initialize`, its agent session (reloaded or new), its mode, the resume point. */

export interface AgentStartContext {
  readonly deps: AcpBackendDeps;
  readonly bounds: AcpBounds;
  /** The connection the agent is started for (what it says at `initialize` of signing in is kept for it). */
  readonly connectionId: string;
  /** The agent's `terminal/create`, for the session it was started for. */
  createTerminal(state: SessionState, params: CreateTerminalRequest): Promise<CreateTerminalResponse>;
}

/**
 * Starts the agent: initialize, then `session/load` of the session kept as its resume point where the agent can,
 * else `session/new`. With `sandbox` (Auto) the whole agent process runs inside it, and the sandbox is
 * disposed when the process ends.
 */
export async function startAcpAgent(
  ctx: AgentStartContext,
  sessionId: string,
  command: AcpAgentCommand,
  fs: SessionState['fs'],
  sandbox: PreparedSandbox | null = null,
): Promise<{ state: SessionState; fresh: AgentSessionStart; forkRefused: string | null }> {
  const { deps, bounds } = ctx;
  const { LiveAcpAgent, readTextFile, writeTextFile } = await loadAcpAgent();
  const terminals = new AcpTerminals(deps.shell.runner, deps.shell.onOutput);
  let holder: SessionState | null = null;
  const known = (): SessionState => {
    if (holder === null) throw new Error('The ACP session is not ready.');
    return holder;
  };
  // The agent's file requests read the session's state as it is at each request (its mode, its approvals).
  const side = {
    readTextFile: (params: ReadTextFileRequest) => readTextFile(fs, params),
    writeTextFile: (params: WriteTextFileRequest) => writeTextFile(fs, params),
    createTerminal: (params: CreateTerminalRequest) => ctx.createTerminal(known(), params),
    terminalOutput: (terminalId: string) => terminals.output(terminalId),
    waitForTerminalExit: (terminalId: string) => terminals.waitForExit(terminalId),
    killTerminal: (terminalId: string) => terminals.kill(terminalId),
    releaseTerminal: (terminalId: string) => terminals.release(terminalId),
  };
  const argv = sandbox === null ? [command.command, ...command.args] : sandbox.wrap([command.command, ...command.args]);
  const live = new LiveAcpAgent(
    deps.newInstanceId(),
    { binary: argv[0] ?? command.command, args: argv.slice(1), env: agentEnv(command), cwd: fs.workspace },
    launchKey(command, fs.workspace, sandbox !== null),
    side,
  );
  if (sandbox !== null) void live.process.exited.then(() => sandbox.dispose());
  live.onNews = (news) => deps.onNews(sessionId, news);
  const state: SessionState = {
    live,
    walled: sandbox !== null,
    fs,
    terminals,
    run: null,
    mapper: null,
    pending: null,
    stopping: null,
  };
  holder = state;
  let fresh: AgentSessionStart = 'reloaded';
  let forkRefused: string | null = null;
  try {
    const info = await live.initialize(deps.cairnVersion, bounds);
    deps.onInitialized?.(ctx.connectionId, info);
    const resumePoint = deps.resumePoints.resumePoint(sessionId);
    const mcpServers = acpMcpServers(deps.mcpServersOf(sessionId), info.agentCapabilities?.mcpCapabilities);
    let modes: SessionModeState | null = null;
    let configOptions: readonly SessionConfigOption[] | null | undefined = null;
    if (resumePoint !== null && info.agentCapabilities?.loadSession === true) {
      live.replaying = true;
      try {
        const loaded = await bounded(
          live.connection.agent.request('session/load', {
            sessionId: resumePoint.acpSessionId,
            cwd: fs.workspace,
            mcpServers,
          }),
          bounds.requestMs,
          'session/load',
        );
        live.sessionId = resumePoint.acpSessionId;
        modes = loaded.modes ?? null;
        configOptions = loaded.configOptions;
      } catch (error) {
        deps.logger.warn('The ACP agent could not load its session; starting a new one', {
          sessionId,
          error: errorText(error),
        });
      } finally {
        live.replaying = false;
      }
    }
    const forkPoint = resumePoint === null ? (deps.forkPointOf?.(sessionId) ?? null) : null;
    if (forkPoint !== null) {
      const forked = await forkAgentSession(live, info, forkPoint, fs.workspace, mcpServers, bounds);
      if ('refused' in forked) {
        forkRefused = forked.refused;
        deps.logger.info('A branch of an ACP session was not forked', { sessionId, reason: forked.refused });
      } else {
        live.sessionId = forked.sessionId;
        modes = forked.modes;
        configOptions = forked.configOptions;
        fresh = 'forked';
      }
    }
    if (live.sessionId === null) {
      const created = await bounded(
        live.connection.agent.request('session/new', { cwd: fs.workspace, mcpServers }),
        bounds.requestMs,
        'session/new',
      );
      live.sessionId = created.sessionId;
      modes = created.modes ?? null;
      configOptions = created.configOptions;
      fresh = resumePoint === null ? 'first' : 'lost';
    }
    live.setOffered(modes, configOptions);
    // The person's choices, kept in the session's record, are applied again to a new or reloaded agent session.
    const chosen = deps.chosenOf(sessionId);
    await applyChosenOptions(live, chosen, bounds);
    await applyAgentMode(live, fs.permissionMode, bounds, chosen);
    deps.resumePoints.bind(
      sessionId,
      {
        acpSessionId: live.sessionId,
        instanceId: live.instanceId,
        pid: live.process.pid,
        agentName: info.agentInfo?.name ?? null,
        agentTitle: info.agentInfo?.title ?? null,
        agentVersion: info.agentInfo?.version ?? null,
      },
      deps.now(),
    );
    if (info.agentInfo != null)
      deps.onAgent(sessionId, {
        name: info.agentInfo.name,
        title: info.agentInfo.title ?? null,
        version: info.agentInfo.version,
      });
  } catch (error) {
    await live.process.terminate(bounds.killGraceMs, bounds.killConfirmMs);
    if (isAuthRequired(error)) throw authRequiredError(live, error);
    const tail = live.process.stderrTail();
    throw new AgentBackendError(
      'agent_start_failed',
      `The ACP agent could not start: ${errorText(error)}${tail === '' ? '' : `\n${tail}`}`,
      'agent_start_failed',
    );
  }
  return { state, fresh, forkRefused };
}

/** The agent refused to start its session until the person signs in (ACP's `auth_required`): the turn fails saying so, with Sign in. */
export function authRequiredError(live: LiveAcpAgent, error: unknown): AgentBackendError {
  const agent = live.info?.agentInfo?.title ?? live.info?.agentInfo?.name ?? 'The agent';
  return new AgentBackendError(
    'agent_auth_required',
    `${agent} asks you to sign in first (${errorText(error)}). Sign in, then retry.`,
    'agent_auth_required',
  );
}

/**
 * Puts the agent in the mode Cairn's permission mode allows, the person's choice (`chosen`) where it
 * may be: by `session/set_mode` where the agent offers session modes, else by its config option of
 * category `mode` where it has one. What it offers then is announced.
 */
export async function applyAgentMode(
  live: LiveAcpAgent,
  permissionMode: PermissionMode,
  bounds: AcpBounds,
  chosen: Readonly<Record<string, string>> = {},
): Promise<void> {
  if (live.sessionId === null) return;
  if (live.modes === null) {
    const option = live.selectors().find(isModeSelector);
    if (option === undefined) return;
    const offered = option.choices.map((choice) => choice.value);
    const wanted = agentModeIn(offered, permissionMode, chosen[option.id] ?? null);
    if (wanted !== null && wanted !== option.current) await applyAgentOption(live, option.id, wanted, bounds);
    return;
  }
  const modeId = agentModeFor(live.modes, permissionMode, chosen[ACP_MODE_SELECTOR] ?? null);
  if (modeId === null) return;
  await bounded(
    live.connection.agent.request('session/set_mode', { sessionId: live.sessionId, modeId }),
    bounds.requestMs,
    'session/set_mode',
  );
  live.setOffered({ ...live.modes, currentModeId: modeId }, live.configOptions);
}

/** Sets one of the agent's config options (`session/set_config_option`); what it offers then is announced. */
export async function applyAgentOption(
  live: LiveAcpAgent,
  configId: string,
  value: string,
  bounds: AcpBounds,
): Promise<void> {
  if (live.sessionId === null) return;
  const answer = await bounded(
    live.connection.agent.request('session/set_config_option', { sessionId: live.sessionId, configId, value }),
    bounds.requestMs,
    'session/set_config_option',
  );
  live.setOffered(live.modes, answer.configOptions);
}

/** The person's choices of config options, set again on the agent where it offers them and stands elsewhere. */
async function applyChosenOptions(
  live: LiveAcpAgent,
  chosen: Readonly<Record<string, string>>,
  bounds: AcpBounds,
): Promise<void> {
  for (const selector of live.selectors()) {
    const value = chosen[selector.id];
    if (selector.kind !== 'option' || selector.category === 'mode' || value === undefined) continue;
    if (value === selector.current || !selector.choices.some((choice) => choice.value === value)) continue;
    await applyAgentOption(live, selector.id, value, bounds);
  }
}

/** An ACP agent's environment: a few of the host's variables, and what its connection gives it (its API key). */
export function agentEnv(command: Pick<AcpAgentCommand, 'env'>): Record<string, string> {
  return childEnvironment({
    scrubSecrets: false,
    only: ['PATH', 'HOME', 'USER', 'LANG', 'TMPDIR', 'SHELL'],
    extra: command.env,
  });
}

/** What a running agent was started as: another key (a new command, folder, or a mode change across the wall) starts it again. */
export function launchKey(command: AcpAgentCommand, cwd: string, walled: boolean): string {
  return JSON.stringify([command.command, command.args, command.env, cwd, walled]);
}
