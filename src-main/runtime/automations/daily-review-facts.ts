import type { Stores } from '../../storage/stores';

/** How far back "today" reaches for a review written at `now`: the last 24 hours. */
export const REVIEW_DAY_MS = 24 * 60 * 60 * 1000;
const MAX_SESSIONS = 40;

/**
 * The message a daily review turn starts with: the day's facts from the record (sessions touched with
 * their titles and states, goals and progress, questions still waiting, usage and cost), then the ask.
 */
export function dailyReviewPrompt(
  stores: Stores,
  now: number,
  reviewSessionId: string | null,
  timeZone: string,
): string {
  const from = now - REVIEW_DAY_MS;
  const touched = [
    ...stores.sessions.list({ archived: false, limit: MAX_SESSIONS + 2 }),
    ...stores.sessions.list({ archived: true, limit: 10 }),
  ]
    .filter(
      (session) =>
        session.updatedAt >= from && session.sessionId !== reviewSessionId && !session.sessionId.startsWith('workhub'),
    )
    .slice(0, MAX_SESSIONS);
  const lines: string[] = [
    `Daily review for the day ending ${new Date(now).toLocaleString('en-GB', { timeZone })} (${timeZone}).`,
    '',
  ];
  lines.push(`Sessions touched (${touched.length}):`);
  if (touched.length === 0) lines.push('- none');
  for (const session of touched) {
    const goal = stores.goals.current(session.sessionId);
    const goalText =
      goal === null
        ? ''
        : `; goal "${goal.objective}" is ${goal.status} after ${goal.iterations} turn(s), ${goal.tokensUsed} tokens${goal.tokenBudget === null ? '' : ` of ${goal.tokenBudget}`}`;
    lines.push(`- "${session.title}": ${session.archived ? 'archived' : session.activity}${goalText}`);
  }
  const waiting = stores.interactions.list({ status: 'pending', limit: 50 });
  lines.push('', `Questions still waiting for an answer (${waiting.length}):`);
  if (waiting.length === 0) lines.push('- none');
  for (const interaction of waiting) {
    const title = stores.sessions.get(interaction.sessionId)?.title ?? interaction.sessionId;
    lines.push(`- a ${interaction.request.kind} in "${title}"`);
  }
  const usage = stores.usage.summary({ by: 'day', from, to: now }).totals;
  const cost = usage.costUsd === null ? 'cost unknown' : `$${usage.costUsd.toFixed(4)}`;
  lines.push(
    '',
    `Usage: ${usage.calls} model call(s), ${usage.inputTokens} input and ${usage.outputTokens} output tokens, ${cost}.`,
  );
  lines.push(
    '',
    'Write a short review of the day from these facts: what got done, what is stuck or waiting on me, and what to pick up next.',
  );
  return lines.join('\n');
}
