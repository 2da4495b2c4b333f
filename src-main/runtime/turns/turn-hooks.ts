import type { InteractionRequest } from '../../../src-shared/interaction-model';
import type { AgentEvent, AgentRunInput } from '../contract/agent-backend';
import type { RunEnding, RunIdentity } from './run-lifecycle';
import { appendHookRun, type HookRecordDeps } from './hook-record';
import { RecentMap } from '../ports/recent-map';
import type { HookEventRequest, HookFiring, HookRunReport } from '../hooks/hook-service';

/** Where a live run records a hook's run (its RunRecorder); closed once the run has ended or waits. */
export interface HookRunSink {
  readonly isClosed: boolean;
  recordHookRun(report: HookRunReport, options?: { toolCallId?: string; modelText?: string | null }): void;
  recordHookFileError(error: { path: string; message: string }): void;
}

export interface TurnHooksDeps extends HookRecordDeps {
  fire(request: HookEventRequest): Promise<HookFiring>;
  /** Hooks files that apply to the session and could not be read. */
  fileErrors(sessionId: string): readonly { readonly path: string; readonly message: string }[];
  /** True for a session whose agent runs its own tools (Codex, ACP): Cairn learns of a call once it ran. */
  readonly runsToolsItself: (sessionId: string) => boolean;
}

/** A Stop hook that keeps blocking is obeyed this many times in one run, then the turn ends (a loop guard). */
export const MAX_STOP_CONTINUATIONS = 8;

/**
 * The sessions whose SessionStart fired are remembered up to this many, the least recently run
 * forgotten first (a host open for days runs a thousand child sessions an hour): one that runs again
 * after this many others have run since fires SessionStart again, with `source: resume`.
 */
export const SESSION_START_MEMORY = 1_000;

/** Turns started by the person (or their queued follow-up): the prompts UserPromptSubmit sees. */
const PERSON_ORIGINS: ReadonlySet<string> = new Set(['user', 'queued_message']);

/**
 * The hooks at a turn's edges, for every agent kind (these steps pass through Cairn whatever runs the
 * turn): SessionStart on a session's first run in this host, UserPromptSubmit before the person's
 * prompt reaches the agent, PreCompact before a Compact now, Stop (SubagentStop in a subagent's
 * session) when the agent finished by itself, Notification when a run waits for the person,
 * PostToolUse for a call an agent ran itself, SessionEnd when a session is archived or removed.
 */
export class TurnHooks {
  /** Sessions whose SessionStart fired in this host, forgotten when they end (SessionEnd) or long unused. */
  private readonly started = new RecentMap<string, true>(SESSION_START_MEMORY);

  constructor(private readonly deps: TurnHooksDeps) {}

  /**
   * Before the backend is asked: `{ contextAdded, text }` (when a hook's context was recorded the
   * history must be read again; an agent that reads only the prompt — Codex, ACP — gets the context
   * after it in `text`), or the run's ending when a hook blocked the prompt.
   */
  async beforeRun(
    input: AgentRunInput,
    sink: HookRunSink,
    signal: AbortSignal,
  ): Promise<{ ending: RunEnding } | { contextAdded: boolean; text: string }> {
    const origin = this.deps.stores.turns.getTurn(input.sessionId, input.turnId)?.origin;
    const contexts: string[] = [];
    const added = () => {
      if (contexts.length === 0 || !this.deps.runsToolsItself(input.sessionId))
        return { contextAdded: contexts.length > 0, text: input.text };
      return { contextAdded: true, text: [input.text, ...contexts].join('\n\n') };
    };
    if (this.started.get(input.sessionId) === undefined && origin !== 'compaction') {
      this.started.set(input.sessionId, true);
      // Once per session and host: a broken hooks file is named where the person works, not only in Settings.
      for (const error of this.deps.fileErrors(input.sessionId)) sink.recordHookFileError(error);
      const earlier = input.history.filter((message) => message.role === 'user').length > 1;
      const source = earlier ? 'resume' : 'startup';
      const start = await this.deps.fire({ event: 'SessionStart', sessionId: input.sessionId, source, signal });
      if (recordAll(start, sink, start.context) && start.context !== null) contexts.push(start.context);
    }
    if (input.runKind !== 'initial' || input.approvedToolCall !== null) return added();
    if (origin === 'compaction') {
      const compact = await this.deps.fire({
        event: 'PreCompact',
        sessionId: input.sessionId,
        source: 'manual',
        signal,
      });
      recordAll(compact, sink, null);
      return added();
    }
    if (origin === undefined || !PERSON_ORIGINS.has(origin)) return added();
    const prompt = await this.deps.fire({
      event: 'UserPromptSubmit',
      sessionId: input.sessionId,
      fields: { prompt: input.text },
      signal,
    });
    const blocked = prompt.block ?? prompt.stop;
    recordAll(prompt, sink, blocked === null ? prompt.context : null);
    if (blocked !== null) {
      const message = `The prompt was blocked by the UserPromptSubmit hook "${blocked.report.command}": ${blocked.reason}`;
      return {
        ending: { status: 'failed', terminalReason: 'hook_blocked', errorCode: 'hook_blocked', errorMessage: message },
      };
    }
    if (prompt.context !== null && prompt.reports.length > 0) contexts.push(prompt.context);
    return added();
  }

  /**
   * The agent finished its turn by itself (never after the person's Stop): a Stop hook that blocks
   * gives the instruction the turn continues with; null ends the turn.
   */
  async atTurnEnd(
    input: AgentRunInput,
    continuations: number,
    sink: HookRunSink,
    signal: AbortSignal,
  ): Promise<{ continueWith: string } | { ending: RunEnding } | null> {
    if (this.deps.stores.turns.getTurn(input.sessionId, input.turnId)?.origin === 'compaction') return null;
    const child = this.deps.stores.agents.get(input.sessionId) !== null;
    const firing = await this.deps.fire({
      event: child ? 'SubagentStop' : 'Stop',
      sessionId: input.sessionId,
      fields: { stop_hook_active: continuations > 0 },
      signal,
    });
    if (firing.stop !== null) {
      recordAll(firing, sink, null);
      const { report, reason } = firing.stop;
      return {
        ending: {
          status: 'failed',
          terminalReason: 'hook_failed',
          errorCode: 'hook_failed',
          errorMessage: `The turn ended because of the ${report.event} hook "${report.command}": ${reason}`,
        },
      };
    }
    const go = firing.block !== null && continuations < MAX_STOP_CONTINUATIONS && !signal.aborted;
    const instruction =
      go && firing.block !== null ? `${firing.block.report.event} hook feedback:\n${firing.block.reason}` : null;
    recordAll(firing, sink, instruction);
    return instruction === null ? null : { continueWith: instruction };
  }

  /** A tool call an agent ran itself (Codex, ACP), as Cairn learns of it: PostToolUse, which can only inform. */
  toolReported(run: RunIdentity, sink: HookRunSink, event: Extract<AgentEvent, { type: 'tool_result' }>): void {
    if (event.isError || !this.deps.runsToolsItself(run.sessionId)) return;
    const call = this.deps.stores.transcript
      .page(run.sessionId, null, 50)
      .findLast((item) => item.kind === 'tool_call' && item.data?.toolCallId === event.toolCallId);
    const tool = {
      name: event.toolName,
      input: call?.data?.input ?? {},
      toolCallId: event.toolCallId,
      response: event.output,
    };
    void this.deps
      .fire({ event: 'PostToolUse', sessionId: run.sessionId, tool })
      .then((firing) => this.recordLate(run, sink, firing, event.toolCallId));
  }

  /** The run waits for the person (a question, an approval): Notification, as Claude Code's "needs your attention". */
  waiting(run: RunIdentity, request: InteractionRequest): void {
    const message =
      request.kind === 'permission'
        ? `Cairn needs your permission: ${request.summary}`
        : 'Cairn is waiting for your answer';
    void this.deps
      .fire({ event: 'Notification', sessionId: run.sessionId, fields: { message, notification_type: request.kind } })
      .then((firing) => this.recordLate(run, null, firing));
  }

  /** The session was archived or removed (a removed session's runs are recorded nowhere: it is gone). */
  sessionEnded(sessionId: string, reason: 'archived' | 'removed'): void {
    this.started.delete(sessionId);
    void this.deps
      .fire({ event: 'SessionEnd', sessionId, fields: { reason: 'other', cairn_reason: reason } })
      .then((firing) => {
        for (const report of firing.reports) appendHookRun(this.deps, sessionId, report);
      });
  }

  /** Records runs that finished after their moment: on the live run while it lasts, else directly on it. */
  private recordLate(run: RunIdentity, sink: HookRunSink | null, firing: HookFiring, toolCallId?: string): void {
    for (const report of firing.reports) {
      if (sink !== null && !sink.isClosed) sink.recordHookRun(report, toolCallId === undefined ? {} : { toolCallId });
      else appendHookRun(this.deps, run.sessionId, report, run);
    }
  }
}

/** Records each run; the first carries what the model reads. True when model text was recorded. */
function recordAll(firing: HookFiring, sink: HookRunSink, modelText: string | null): boolean {
  firing.reports.forEach((report, index) => sink.recordHookRun(report, { modelText: index === 0 ? modelText : null }));
  return modelText !== null && firing.reports.length > 0;
}
