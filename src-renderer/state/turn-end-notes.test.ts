import { describe, expect, it } from 'vitest';
import { WORKHUB_SESSION_ID } from '../../src-shared/workhub-model';
import { events, turn } from './reducers/record-fixtures';
import { endedTurns } from './turn-end-notes';

describe('turns ended, for background notes', () => {
  it('are those seen running that then ended — not one already over when first heard of, not the WorkHub’s', () => {
    const running = new Set<string>();
    expect(
      endedTurns(
        running,
        events(
          { kind: 'turn.changed', turn: turn({ turnId: 'old', status: 'completed' }) },
          { kind: 'turn.changed', turn: turn({ turnId: 't1', status: 'running' }) },
          { kind: 'turn.changed', turn: turn({ sessionId: WORKHUB_SESSION_ID, turnId: 'hub', status: 'running' }) },
        ),
      ),
    ).toEqual([]);
    const ended = endedTurns(
      running,
      events(
        { kind: 'turn.changed', turn: turn({ turnId: 't1', status: 'failed' }) },
        { kind: 'turn.changed', turn: turn({ sessionId: WORKHUB_SESSION_ID, turnId: 'hub', status: 'completed' }) },
      ),
    );
    expect(ended).toEqual([{ sessionId: 's1', turnId: 't1', status: 'failed' }]);
    // Told once: the same end reported again is not a second note.
    expect(
      endedTurns(running, events({ kind: 'turn.changed', turn: turn({ turnId: 't1', status: 'failed' }) })),
    ).toEqual([]);
  });
});
