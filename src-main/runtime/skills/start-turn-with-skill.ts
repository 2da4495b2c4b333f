import { fail, type Outcome } from '../../../src-shared/errors';
import type { TurnStartResult } from '../../../src-shared/operations';
import { LOAD_SKILL_TOOL_NAME } from '../../../src-shared/skill-model';
import { skillTitleHint } from '../sessions/session-title';
import type { TurnService, TurnStartRequest } from '../turns/turn-service';
import type { SkillService } from './skill-service';

/**
 * Starts a turn with a skill the person chose: the skill is read now and recorded as a `load_skill`
 * call and result right after the message, so the agent's first step already has its text. A retried
 * start (same turn id) answers with the recorded turn and reads nothing.
 */
export async function startTurnWithSkill(
  runtime: { readonly turns: TurnService; readonly skills: SkillService },
  request: TurnStartRequest & { readonly skillId: string },
): Promise<
  Outcome<
    TurnStartResult,
    | 'host_draining'
    | 'invalid_input'
    | 'not_found'
    | 'operation_conflict'
    | 'operation_unavailable'
    | 'session_archived'
    | 'session_busy'
    | 'storage_damaged'
  >
> {
  const replay = runtime.turns.query(request.sessionId, request.turnId);
  if (replay.ok) return runtime.turns.start(request);
  const loaded = await runtime.skills.load(request.sessionId, request.skillId);
  if (!loaded.ok) return fail(loaded.error.code, loaded.error.message);
  const { skillId, ...turn } = request;
  return runtime.turns.start({
    ...turn,
    titleHint: turn.titleHint ?? skillTitleHint(loaded.result.name, turn.text),
    preloaded: {
      toolCallId: `skill-${request.turnId}`,
      toolName: LOAD_SKILL_TOOL_NAME,
      input: { id: skillId },
      output: loaded.result,
    },
  });
}
