import type { InitializeResponse, SessionUpdate } from '@agentclientprotocol/sdk';
import type { AcpListedSession } from '../../../../src-shared/acp-model';
import type { AcpAgentCommand } from '../../../../src-shared/connection-model';
import type { AgentEvent } from '../../contract/agent-backend';
import { agentEnv } from './acp-agent-start';
import { loadAcpAgent } from './acp-agent-loader';
import { bounded, type AcpBounds } from './acp-bounds';
import { AcpEventMapper } from './acp-event-mapper';
import type { LiveAcpAgent } from './live-acp-agent';

/**
 * The agent's own earlier sessions, read through a short-lived agent process of the connection:
 * `session/list` (one page, for a folder) and `session/load` (its replayed history, kept). What the
 * agent says is untrusted: lists and texts are bounded.
 */

const MAX_LISTED = 200;
const MAX_REPLAYED = 20_000;

/** Whether the agent declares `session/list`. */
export function agentLists(info: InitializeResponse): boolean {
  return info.agentCapabilities?.sessionCapabilities?.list != null;
}

/** Starts the connection's agent in `cwd`, runs `initialize`, hands it to `use`, and ends its process group after. */
export async function withAgent<T>(
  command: AcpAgentCommand,
  cwd: string,
  cairnVersion: string,
  bounds: AcpBounds,
  use: (live: LiveAcpAgent, info: InitializeResponse) => Promise<T>,
): Promise<T> {
  const { LiveAcpAgent } = await loadAcpAgent();
  const refuse = () =>
    Promise.reject(new Error('Cairn opens no files or terminals while it reads the agent’s sessions'));
  const none = () => {
    throw new Error('Cairn opens no terminals while it reads the agent’s sessions');
  };
  const live = new LiveAcpAgent(
    'import',
    { binary: command.command, args: command.args, env: agentEnv(command), cwd },
    'import',
    {
      readTextFile: refuse,
      writeTextFile: refuse,
      createTerminal: refuse,
      terminalOutput: none,
      waitForTerminalExit: refuse,
      killTerminal: none,
      releaseTerminal: none,
    },
  );
  try {
    const info = await live.initialize(cairnVersion, bounds);
    return await use(live, info);
  } catch (error) {
    const tail = live.process.stderrTail();
    if (tail === '' || !(error instanceof Error)) throw error;
    throw new Error(`${error.message}\n${tail}`);
  } finally {
    await live.process.terminate(bounds.killGraceMs, bounds.killConfirmMs);
  }
}

/** One page of the agent's sessions of `cwd` (`session/list`); null when the agent does not declare it. */
export async function listAgentSessions(
  live: LiveAcpAgent,
  info: InitializeResponse,
  cwd: string,
  cursor: string | null,
  bounds: AcpBounds,
): Promise<{ sessions: AcpListedSession[]; nextCursor: string | null } | null> {
  if (!agentLists(info)) return null;
  const page = await bounded(
    live.connection.agent.request('session/list', { cwd, ...(cursor === null ? {} : { cursor }) }),
    bounds.requestMs,
    'session/list',
  );
  const sessions = page.sessions
    .filter((session) => typeof session.sessionId === 'string' && session.sessionId.length <= 500)
    .slice(0, MAX_LISTED)
    .map((session) => {
      const updated = typeof session.updatedAt === 'string' ? Date.parse(session.updatedAt) : Number.NaN;
      return {
        acpSessionId: session.sessionId,
        cwd: String(session.cwd).slice(0, 4096),
        title:
          typeof session.title === 'string' && session.title.trim() !== '' ? session.title.trim().slice(0, 200) : null,
        updatedAt: Number.isFinite(updated) ? updated : null,
        importedAs: null,
      };
    });
  const next = typeof page.nextCursor === 'string' && page.nextCursor.length <= 2000 ? page.nextCursor : null;
  return { sessions, nextCursor: next };
}

/**
 * Loads the agent session `acpSessionId` (`session/load`, in `cwd`) and returns what the agent
 * replayed of its history, in order. Throws when the agent cannot load sessions or refuses this one.
 */
export async function replayAgentSession(
  live: LiveAcpAgent,
  info: InitializeResponse,
  acpSessionId: string,
  cwd: string,
  bounds: AcpBounds,
): Promise<SessionUpdate[]> {
  if (info.agentCapabilities?.loadSession !== true) throw new Error('the agent cannot load its sessions (loadSession)');
  const updates: SessionUpdate[] = [];
  live.onReplay = (update) => {
    if (updates.length < MAX_REPLAYED) updates.push(update);
  };
  live.replaying = true;
  try {
    await bounded(
      live.connection.agent.request('session/load', { sessionId: acpSessionId, cwd, mcpServers: [] }),
      bounds.requestMs,
      'session/load',
    );
  } finally {
    live.replaying = false;
    live.onReplay = null;
  }
  return updates;
}

/** One turn of a replayed history: the person's message and what the agent did in answer, as Cairn agent events. */
export interface ReplayedTurn {
  readonly text: string;
  readonly events: AgentEvent[];
}

/**
 * A replayed history as turns: each run of the person's message chunks opens a turn, and the agent's
 * updates after it (its messages, thoughts, tool calls with their results, plans) are that turn's
 * events, mapped as a live turn maps them. What the agent said before any message of the person's
 * is a turn of its own.
 */
export function turnsOfReplay(updates: readonly SessionUpdate[]): ReplayedTurn[] {
  const turns: { text: string; events: AgentEvent[]; mapper: AcpEventMapper }[] = [];
  let previousWasUser = false;
  for (const update of updates) {
    if (update.sessionUpdate === 'user_message_chunk') {
      const text = update.content.type === 'text' ? update.content.text : '';
      const current = turns.at(-1);
      if (previousWasUser && current !== undefined) current.text += text;
      else turns.push({ text, events: [], mapper: new AcpEventMapper() });
      previousWasUser = true;
      continue;
    }
    const events = (turns.at(-1) ?? openAgentTurn(turns)).mapper.map(update);
    if (events.length === 0) continue;
    previousWasUser = false;
    turns.at(-1)?.events.push(...events);
  }
  return turns
    .map(({ text, events }) => ({ text: text.trim() === '' ? '(imported)' : text.trim(), events }))
    .filter((turn) => turn.text !== '(imported)' || turn.events.length > 0);
}

function openAgentTurn(turns: { text: string; events: AgentEvent[]; mapper: AcpEventMapper }[]) {
  const turn = { text: '', events: [], mapper: new AcpEventMapper() };
  turns.push(turn);
  return turn;
}
