import type { Stores } from '../../storage/stores';
import type { AgentRunInput } from '../agent-backends/agent-backend';
import type { RunEnding } from '../turns/run-lifecycle';
import type { HookEventRequest, HookFiring, HookRunReport } from './hook-service';

/** Records a hook's run in the run's transcript; `modelText` is what the model reads from it. */
export type RecordHookRun = (report: HookRunReport, modelText: string | null) => void;

export interface TurnHooksDeps {
  readonly stores: Stores;
  fire(request: HookEventRequest): Promise<HookFiring>;
}

/** A Stop hook that keeps blocking is obeyed this many times in one run, then the turn ends (a loop guard). */
export const MAX_STOP_CONTINUATIONS = 8;

/**
 * The hooks at a turn's edges, for every agent kind (they pass through Cairn whatever runs the turn):
 * SessionStart on a session's first run in this host, UserPromptSubmit before the person's prompt
 * reaches the agent, Stop (SubagentStop in a subagent's session) when the agent finished by itself.
 */
export class TurnHooks {
  private readonly started = new Set<string>();

  constructor(private readonly deps: TurnHooksDeps) {}

  /**
   * Before the backend is asked: null to go on as is, `{ contextAdded }` when a hook's context was
   * recorded (the history must be read again), or the run's ending when a hook blocked the prompt.
   */
  async beforeRun(
    input: AgentRunInput,
    record: RecordHookRun,
    signal: AbortSignal,
  ): Promise<{ ending: RunEnding } | { contextAdded: boolean }> {
    let contextAdded = false;
    if (!this.started.has(input.sessionId)) {
      this.started.add(input.sessionId);
      const earlier = input.history.filter((message) => message.role === 'user').length > 1;
      const start = await this.deps.fire({
        event: 'SessionStart',
        sessionId: input.sessionId,
        source: earlier ? 'resume' : 'startup',
        signal,
      });
      contextAdded = recordAll(start, record, start.context) || contextAdded;
    }
    if (input.runKind !== 'initial' || input.approvedToolCall !== null) return { contextAdded };
    const prompt = await this.deps.fire({
      event: 'UserPromptSubmit',
      sessionId: input.sessionId,
      fields: { prompt: input.text },
      signal,
    });
    const blocked = prompt.block ?? prompt.stop;
    recordAll(prompt, record, blocked === null ? prompt.context : null);
    if (blocked !== null) {
      const message = `The prompt was blocked by the UserPromptSubmit hook "${blocked.report.command}": ${blocked.reason}`;
      return {
        ending: { status: 'failed', terminalReason: 'hook_blocked', errorCode: 'hook_blocked', errorMessage: message },
      };
    }
    return { contextAdded: contextAdded || prompt.context !== null };
  }

  /**
   * The agent finished its turn by itself (never after the person's Stop): a Stop hook that blocks
   * gives the instruction the turn continues with; null ends the turn.
   */
  async atTurnEnd(
    input: AgentRunInput,
    continuations: number,
    record: RecordHookRun,
    signal: AbortSignal,
  ): Promise<{ continueWith: string } | { ending: RunEnding } | null> {
    const child = this.deps.stores.agents.get(input.sessionId) !== null;
    const firing = await this.deps.fire({
      event: child ? 'SubagentStop' : 'Stop',
      sessionId: input.sessionId,
      fields: { stop_hook_active: continuations > 0 },
      signal,
    });
    if (firing.stop !== null) {
      recordAll(firing, record, null);
      return {
        ending: {
          status: 'failed',
          terminalReason: 'hook_failed',
          errorCode: 'hook_failed',
          errorMessage: `The turn ended because of the Stop hook "${firing.stop.report.command}": ${firing.stop.reason}`,
        },
      };
    }
    const go = firing.block !== null && continuations < MAX_STOP_CONTINUATIONS && !signal.aborted;
    const instruction = go && firing.block !== null ? `Stop hook feedback:\n${firing.block.reason}` : null;
    recordAll(firing, record, instruction);
    return instruction === null ? null : { continueWith: instruction };
  }
}

/** Records each run; the first carries what the model reads. True when model text was recorded. */
function recordAll(firing: HookFiring, record: RecordHookRun, modelText: string | null): boolean {
  firing.reports.forEach((report, index) => record(report, index === 0 ? modelText : null));
  return modelText !== null && firing.reports.length > 0;
}
