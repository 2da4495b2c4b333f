import { randomUUID } from 'node:crypto';
import {
  agent,
  RequestError,
  type AgentApp,
  type AgentContext,
  type ContentBlock,
  type SessionInfo,
  type SessionModeState,
} from '@agentclientprotocol/sdk';
import type { Outcome } from '../../src-shared/errors';
import { PERMISSION_MODES, type PermissionMode, type SessionRecord } from '../../src-shared/model';
import type { LocalHostClient } from '../host-client/local-host-client';
import { PromptTurn, stopReasonOf } from './prompt-turn';
import { promptParts } from './prompt-content';
import { replayTranscript, type ReplayedItem } from './session-replay';

export interface CairnAgentOptions {
  readonly host: LocalHostClient;
  /** For stderr: never stdout, which carries only JSON-RPC. */
  readonly log: (line: string) => void;
  readonly version: string;
}

/** Cairn's permission modes as the ACP session modes an editor offers in its picker. */
const MODES: Readonly<Record<PermissionMode, { readonly name: string; readonly description: string }>> = {
  explore: { name: 'Explore', description: 'Reads only: no file changes, no commands' },
  ask: { name: 'Ask', description: 'Asks before each change or command' },
  auto: { name: 'Auto', description: 'Changes and commands inside the sandbox without asking' },
  full: { name: 'Full', description: 'Everything without asking' },
};

/**
 * Cairn's built-in agent as an ACP agent (docs/acp.md, "Cairn as an ACP agent"): every ACP session is
 * a Cairn session of the host that owns the data directory, reached through its local socket.
 */
export function cairnAgent(options: CairnAgentOptions): AgentApp {
  const { host, log } = options;
  const prompts = new Map<string, PromptTurn>();
  /** The sessions the editor has open (`session/new`, `session/load`), each with the editor to tell. */
  const open = new Map<string, AgentContext>();
  /** Turns of an open session started elsewhere (Cairn's window, a goal, another editor), shown as they run. */
  const shown = new Map<string, PromptTurn>();
  host.onEvent((event) => {
    if (event.kind === 'transcript.appended') showIfStartedElsewhere(event.item.sessionId, event.item.turnId);
    for (const prompt of prompts.values()) prompt.onEvent(event);
    for (const turn of shown.values()) turn.onEvent(event);
  });

  /** Sessions the editor is loading: what their replay sent, once it is done. */
  const loading = new Map<string, Promise<ReadonlyMap<string, ReplayedItem>>>();

  /** A turn of an open session this editor did not prompt: followed from here on (after a replay under way). */
  function showIfStartedElsewhere(sessionId: string, turnId: string) {
    const client = open.get(sessionId);
    if (client === undefined || shown.has(turnId) || prompts.get(sessionId)?.turnId === turnId) return;
    const turn = new PromptTurn({ host, client, log }, sessionId, turnId, 'elsewhere', loading.get(sessionId));
    shown.set(turnId, turn);
    void turn.ended.then(() => shown.delete(turnId));
  }

  const call = async <T>(outcome: Promise<Outcome<T>>): Promise<T> => {
    const settled = await outcome;
    if (settled.ok) return settled.result;
    if (settled.error.code === 'not_found') throw RequestError.resourceNotFound();
    if (settled.error.code === 'invalid_input') throw RequestError.invalidParams(undefined, settled.error.message);
    throw RequestError.internalError(undefined, settled.error.message);
  };

  return agent({ name: 'cairn' })
    .onRequest('initialize', () => ({
      protocolVersion: 1,
      agentInfo: { name: 'cairn', title: 'Cairn', version: options.version },
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: true, audio: false, embeddedContext: true },
        sessionCapabilities: { list: {} },
      },
      authMethods: [],
    }))
    .onRequest('session/new', async ({ params, client }) => {
      const { session } = await call(host.invoke('session.create', { workspacePath: params.cwd }));
      log(`Session ${session.sessionId} for ${params.cwd}`);
      open.set(session.sessionId, client);
      return { sessionId: session.sessionId, modes: modesOf(session) };
    })
    .onRequest('session/load', async ({ params, client }) => {
      const { sessionId } = params;
      // Open from before the record is read: a turn running now, or starting during the replay, carries
      // on after it, with nothing missed and nothing sent twice.
      let replayed: (items: ReadonlyMap<string, ReplayedItem>) => void = () => undefined;
      loading.set(sessionId, new Promise((resolve) => (replayed = resolve)));
      open.set(sessionId, client);
      try {
        const { session, activeTurn } = await call(host.invoke('session.get', { sessionId }));
        if (activeTurn !== null) showIfStartedElsewhere(sessionId, activeTurn.turnId);
        replayed(await replayTranscript(host, client, sessionId));
        return { modes: modesOf(session) };
      } catch (error) {
        open.delete(sessionId);
        replayed(new Map());
        throw error;
      } finally {
        loading.delete(sessionId);
      }
    })
    .onRequest('session/list', async ({ params }) => {
      const listed = await call(
        host.invoke('session.list', { limit: 100, ...(params.cursor == null ? {} : { cursor: params.cursor }) }),
      );
      const sessions: SessionInfo[] = listed.sessions
        .filter(
          (session) => session.workspacePath !== null && (params.cwd == null || session.workspacePath === params.cwd),
        )
        .map((session) => ({
          sessionId: session.sessionId,
          cwd: session.workspacePath ?? '',
          title: session.title,
          updatedAt: new Date(session.updatedAt).toISOString(),
        }));
      return { sessions, nextCursor: listed.nextCursor };
    })
    .onRequest('session/set_mode', async ({ params }) => {
      const mode = PERMISSION_MODES.find((candidate) => candidate === params.modeId);
      if (mode === undefined) throw RequestError.invalidParams(undefined, `No mode "${params.modeId}"`);
      await call(host.invoke('session.configure', { sessionId: params.sessionId, permissionMode: mode }));
      return {};
    })
    .onRequest('session/prompt', async ({ params, client }) => {
      if (prompts.has(params.sessionId))
        throw RequestError.invalidRequest(undefined, 'This session is already working on a prompt');
      return runPrompt(params.sessionId, params.prompt, client);
    })
    .onNotification('session/cancel', async ({ params }) => {
      const prompt = prompts.get(params.sessionId);
      if (prompt === undefined) return;
      const stopped = await host.invoke('turn.stop', {
        sessionId: params.sessionId,
        turnId: prompt.turnId,
        source: 'editor_stop',
      });
      if (!stopped.ok) log(`Stop was refused: ${stopped.error.message}`);
    });

  async function runPrompt(sessionId: string, blocks: readonly ContentBlock[], client: AgentContext) {
    const parts = await promptParts(host, sessionId, blocks);
    const turnId = `acp-${randomUUID()}`;
    const prompt = new PromptTurn({ host, client, log }, sessionId, turnId);
    prompts.set(sessionId, prompt); // before the turn starts: its first events must not be missed
    const closed = host.closed.then(() => null);
    try {
      const started = await host.invoke('turn.start', {
        sessionId,
        turnId,
        text: parts.text,
        ...(parts.attachmentIds.length === 0 ? {} : { attachmentIds: [...parts.attachmentIds] }),
      });
      if (!started.ok) {
        const busy = started.error.code === 'session_busy';
        throw RequestError.internalError(
          undefined,
          busy
            ? 'This Cairn session is busy with another turn; wait for it or stop it in Cairn.'
            : started.error.message,
        );
      }
      const turn = await Promise.race([prompt.ended, closed]);
      if (turn === null) throw RequestError.internalError(undefined, 'The Cairn host stopped during the turn');
      if (turn.status === 'failed' || turn.status === 'interrupted')
        throw RequestError.internalError(undefined, turn.latestRun.errorMessage ?? `The turn ${turn.status}`);
      return { stopReason: stopReasonOf(turn) };
    } finally {
      prompts.delete(sessionId);
    }
  }
}

function modesOf(session: SessionRecord): SessionModeState {
  return {
    currentModeId: session.permissionMode,
    availableModes: PERMISSION_MODES.map((id) => ({ id, ...MODES[id] })),
  };
}
