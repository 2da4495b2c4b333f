import type { SummaryRecord } from '../../../src-shared/compaction-model';

/** What a goal keeps in every request however much is summarised: its objective and the message it started from. */
export interface GoalPins {
  readonly objective: string;
  readonly firstMessage: string | null;
}

/** The block a model request carries in its system prompt once older turns are summarised. */
export function contextBlockOf(summary: SummaryRecord, goal: GoalPins | null): string {
  const range = `turns ${summary.firstTurn}–${summary.lastTurn}`;
  const body = summary.text ?? 'The earlier conversation was compacted; no summary text is available.';
  const parts = [
    `## Earlier conversation (summarised, ${range})\nThe messages before the ones you see were summarised:\n\n${body}`,
  ];
  if (goal !== null) {
    parts.push(`## The goal\n${goal.objective}`);
    if (goal.firstMessage !== null && goal.firstMessage !== goal.objective)
      parts.push(`The person's first message for this goal:\n${goal.firstMessage}`);
  }
  return parts.join('\n\n');
}
