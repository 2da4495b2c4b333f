import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import type { AcpSessionListing } from '../../../src-shared/acp-model';
import type { ChangeEventBody } from '../../../src-shared/events';
import { fail, ok, type Outcome } from '../../../src-shared/errors';
import type { SessionRecord } from '../../../src-shared/model';
import type { AgentEvent } from '../contract/agent-backend';
import { DEFAULT_ACP_BOUNDS, errorText, type AcpBounds } from '../agent-backends/acp/acp-bounds';
import {
  listAgentSessions,
  replayAgentSession,
  turnsOfReplay,
  withAgent,
  type ReplayedTurn,
} from '../agent-backends/acp/acp-session-import';
import type { ConnectionService } from '../connections/connection-service';
import type { EventBus } from '../ports/event-bus';
import type { SessionService } from '../sessions/session-service';
import { titleFromMessage } from '../sessions/session-title';
import { RunRecorder } from '../turns/run-recorder';
import { endRun, openTurn, turnAndSessionEvents } from '../turns/run-lifecycle';
import type { RuntimeDeps } from './runtime-contract';

/**
 * "Import from <agent>": an ACP agent's own earlier sessions (`session/list`) become Cairn sessions
 * bound to them, their history (`session/load`'s replay) recorded as their transcript; the next
 * message continues the same agent session (the backend reloads it, as after a restart).
 */
/** What listing or importing an agent's sessions may answer. */
type ImportError = 'not_found' | 'invalid_input' | 'operation_unavailable' | 'provider_error';

export interface AcpImport {
  list(request: {
    connectionId: string;
    cwd: string;
    cursor?: string | undefined;
  }): Promise<Outcome<AcpSessionListing, ImportError>>;
  import(request: {
    connectionId: string;
    acpSessionId: string;
    cwd: string;
    title?: string | undefined;
  }): Promise<Outcome<{ session: SessionRecord; created: boolean }, ImportError>>;
}

export function createAcpImport(
  runtime: RuntimeDeps,
  bus: EventBus,
  connections: ConnectionService,
  sessions: SessionService,
): AcpImport {
  const bounds: AcpBounds = { ...DEFAULT_ACP_BOUNDS, ...runtime.acp?.bounds };
  const { stores } = runtime;
  // One import of an agent session at a time: a second ask while it loads gets the same session.
  const importing = new Map<string, Promise<Outcome<{ session: SessionRecord; created: boolean }, ImportError>>>();

  function commandOf(connectionId: string, cwd: string) {
    if (!connections.targets.isAcp(connectionId))
      return fail('invalid_input', 'Only an ACP agent’s sessions can be imported; pick an ACP connection.');
    if (!isAbsolute(cwd) || !existsSync(cwd))
      return fail('invalid_input', `The folder ${cwd} does not exist on this machine (give an absolute path).`);
    const command = connections.targets.acpAgent(connectionId);
    if ('error' in command) return fail('operation_unavailable', command.error);
    return ok(command);
  }

  const existing = (connectionId: string, acpSessionId: string): SessionRecord | null => {
    const sessionId = stores.acp.boundTo(connectionId, acpSessionId)[0];
    return sessionId === undefined ? null : stores.sessions.get(sessionId);
  };

  async function list(request: { connectionId: string; cwd: string; cursor?: string | undefined }) {
    const command = commandOf(request.connectionId, request.cwd);
    if (!command.ok) return command;
    try {
      return await withAgent(command.result, request.cwd, runtime.cairnVersion, bounds, async (live, info) => {
        const agent =
          info.agentInfo?.title ?? info.agentInfo?.name ?? connections.get(request.connectionId)?.name ?? 'the agent';
        const page = await listAgentSessions(live, info, request.cwd, request.cursor ?? null, bounds);
        if (page === null) return ok({ offered: false, agent, sessions: [], nextCursor: null });
        const sessions = page.sessions.map((session) => ({
          ...session,
          importedAs: existing(request.connectionId, session.acpSessionId)?.sessionId ?? null,
        }));
        return ok({ offered: true, agent, sessions, nextCursor: page.nextCursor });
      });
    } catch (error) {
      return fail('provider_error', `The agent could not list its sessions: ${errorText(error)}`);
    }
  }

  async function importOnce(request: {
    connectionId: string;
    acpSessionId: string;
    cwd: string;
    title?: string | undefined;
  }) {
    const already = existing(request.connectionId, request.acpSessionId);
    if (already !== null) return ok({ session: already, created: false });
    const command = commandOf(request.connectionId, request.cwd);
    if (!command.ok) return command;
    let turns: ReplayedTurn[];
    try {
      turns = await withAgent(command.result, request.cwd, runtime.cairnVersion, bounds, async (live, info) =>
        turnsOfReplay(await replayAgentSession(live, info, request.acpSessionId, request.cwd, bounds)),
      );
    } catch (error) {
      return fail('provider_error', `The agent could not load that session: ${errorText(error)}`);
    }
    const raced = existing(request.connectionId, request.acpSessionId);
    if (raced !== null) return ok({ session: raced, created: false });
    const created = sessions.create({ connectionId: request.connectionId, workspacePath: request.cwd });
    if (!created.ok) return created;
    const { sessionId } = created.result.session;
    try {
      const events = stores.transaction(() => {
        stores.acp.bind(
          sessionId,
          {
            acpSessionId: request.acpSessionId,
            instanceId: 'import',
            pid: null,
            agentName: null,
            agentTitle: null,
            agentVersion: null,
          },
          runtime.clock.now(),
        );
        // The agent's title, else the first message's; the agent may retitle it later, the person too.
        const title = request.title ?? titleFromMessage(turns[0]?.text ?? '');
        if (title !== null) stores.sessions.setTitle(sessionId, title, 'auto', runtime.clock.now());
        return turns.flatMap((turn, index) => recordTurn(sessionId, `imported-${index + 1}`, turn));
      });
      for (const event of events) bus.publish(event);
    } catch (error) {
      stores.transaction(() => stores.sessions.remove(sessionId));
      bus.publish({ kind: 'session.removed', sessionId });
      throw error;
    }
    return ok({ session: stores.sessions.get(sessionId) ?? created.result.session, created: true });
  }

  /** One replayed turn, written as a finished turn through a run's own write path (inside the caller's transaction). */
  function recordTurn(sessionId: string, turnId: string, turn: ReplayedTurn): ChangeEventBody[] {
    const { ids, clock } = runtime;
    const now = clock.now();
    const run = { sessionId, turnId, runId: ids.next('run') };
    const itemId = ids.next('item');
    openTurn(stores, { ...run, origin: 'user', text: turn.text, maxSteps: 1 }, { origin: 'user', imported: true }, now);
    stores.ledger.append(run.runId, [{ kind: 'user_message', payload: { itemId, text: turn.text } }], now);
    const item = stores.transcript.append(
      { ...run, itemId, kind: 'user_message', text: turn.text, state: 'final', now },
      stores.sessions.reservePositions(sessionId, 1),
    );
    const recorder = new RunRecorder({ ...runtime, bus }, run, stores.sessions.get(sessionId)?.connectionId ?? '');
    for (const event of turn.events) take(recorder, event);
    const published: ChangeEventBody[] = [{ kind: 'transcript.appended', item }, ...recorder.commitPending()];
    recorder.close();
    stores.transcript.finalizeRun(run.runId);
    published.push(...(endRun(stores, run, { status: 'completed', terminalReason: 'end_turn' }, now) ?? []));
    published.push(...turnAndSessionEvents(stores, sessionId, run.turnId));
    return published;
  }

  return {
    list,
    async import(request) {
      const key = JSON.stringify([request.connectionId, request.acpSessionId]);
      const running = importing.get(key);
      if (running !== undefined) return running;
      const started = importOnce(request).finally(() => importing.delete(key));
      importing.set(key, started);
      return started;
    },
  };
}

/** A replayed event, written as a live run's would be. */
function take(recorder: RunRecorder, event: AgentEvent): void {
  if (event.type === 'text_delta') recorder.appendText('assistant_message', event.text);
  else if (event.type === 'reasoning_delta') recorder.appendText('reasoning', event.text);
  else if (event.type === 'tool_call')
    recorder.recordItem('tool_call', event.toolName, {
      toolCallId: event.toolCallId,
      toolName: event.toolName,
      input: event.input,
    });
  else if (event.type === 'tool_result')
    recorder.recordItem('tool_result', event.toolName, {
      toolCallId: event.toolCallId,
      toolName: event.toolName,
      output: event.output,
      isError: event.isError,
    });
}
