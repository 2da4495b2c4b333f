import { describe, expect, it } from 'vitest';
import { goalChangesFor, goalUpdateOf } from './goal-mirror';

const active = { status: 'active', tokensUsed: 1000, timeUsedSeconds: 30 } as const;
const update = (
  status: 'active' | 'paused' | 'blocked' | 'usageLimited' | 'budgetLimited' | 'complete',
  tokensUsed: number,
  timeUsedSeconds: number,
) => ({
  status,
  tokensUsed,
  timeUsedSeconds,
});

describe('goalChangesFor: a Codex thread goal update mirrored into the Cairn goal', () => {
  it('raises tokens and time to Codex figures, never counting them twice', () => {
    expect(goalChangesFor(active, update('paused', 1500, 45))).toEqual({ addTokens: 500, addTimeMs: 15_000 });
    expect(goalChangesFor(active, update('paused', 800, 10))).toBeNull(); // Cairn already counted more
    expect(goalChangesFor(active, update('active', 1000, 30))).toBeNull();
  });

  it('settles an active goal with the status Codex settled, with the reason', () => {
    expect(goalChangesFor(active, update('complete', 0, 0))).toEqual({
      status: 'complete',
      lastReason: 'Codex marked the goal complete.',
    });
    expect(goalChangesFor(active, update('blocked', 0, 0))).toMatchObject({ status: 'blocked' });
    expect(goalChangesFor(active, update('budgetLimited', 2000, 30))).toEqual({
      addTokens: 1000,
      status: 'budgetLimited',
      lastReason: 'Codex reports the token budget used up.',
    });
    expect(goalChangesFor(active, update('usageLimited', 0, 0))).toMatchObject({ status: 'usageLimited' });
  });

  it("leaves a goal the person paused, and Codex's own paused/active, to Cairn's driver", () => {
    expect(goalChangesFor({ ...active, status: 'paused' }, update('complete', 0, 0))).toBeNull();
    expect(goalChangesFor(active, update('paused', 0, 0))).toBeNull();
  });

  it('reads thread/goal/updated and nothing else', () => {
    const goal = {
      threadId: 't',
      objective: 'o',
      status: 'complete',
      tokenBudget: null,
      tokensUsed: 15,
      timeUsedSeconds: 2,
      createdAt: 1,
      updatedAt: 1,
    };
    expect(goalUpdateOf('thread/goal/updated', { threadId: 't', turnId: null, goal })).toMatchObject({
      status: 'complete',
      tokensUsed: 15,
      timeUsedSeconds: 2,
    });
    expect(goalUpdateOf('thread/goal/cleared', { threadId: 't' })).toBeNull();
    expect(goalUpdateOf('thread/goal/updated', { goal: { status: 'gone' } })).toBeNull();
  });
});
