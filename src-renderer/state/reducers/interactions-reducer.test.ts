import { describe, expect, it } from 'vitest';
import { applyInteraction, applyPendingList, EMPTY_INTERACTIONS, reduceInteractionEvent } from './interactions-reducer';
import { events, interaction } from './record-fixtures';

describe('the interactions reducer', () => {
  it('lists pending interactions oldest first and takes them off once settled', () => {
    let state = applyInteraction(
      EMPTY_INTERACTIONS,
      interaction({ interactionId: 'i2', createdAt: 20, updatedAt: 20 }),
    );
    state = applyInteraction(state, interaction({ interactionId: 'i1', createdAt: 10, updatedAt: 10 }));
    expect(state.pendingIds).toEqual(['i1', 'i2']);
    state = applyInteraction(state, interaction({ interactionId: 'i1', status: 'answered', updatedAt: 30 }));
    expect(state.pendingIds).toEqual(['i2']);
    expect(state.byId.i1?.status).toBe('answered');
  });

  it('never moves a settled interaction back to pending, nor takes an older copy', () => {
    const answered = applyInteraction(
      EMPTY_INTERACTIONS,
      interaction({ interactionId: 'i1', status: 'closed', closeReason: 'turn_stopped', updatedAt: 30 }),
    );
    expect(applyInteraction(answered, interaction({ interactionId: 'i1', status: 'pending', updatedAt: 40 }))).toBe(
      answered,
    );
    const pending = applyInteraction(EMPTY_INTERACTIONS, interaction({ interactionId: 'i1', updatedAt: 30 }));
    expect(applyInteraction(pending, interaction({ interactionId: 'i1', updatedAt: 10 }))).toBe(pending);
  });

  it('replaces the pending list from interaction.list and drops pending records settled meanwhile', () => {
    let state = applyInteraction(EMPTY_INTERACTIONS, interaction({ interactionId: 'gone' }));
    state = applyInteraction(state, interaction({ interactionId: 'done', status: 'answered' }));
    state = applyPendingList(state, [interaction({ interactionId: 'new', sessionId: 's2' })]);
    expect(state.pendingLoaded).toBe(true);
    expect(state.pendingIds).toEqual(['new']);
    expect(state.byId.gone).toBeUndefined();
    expect(state.byId.done?.status).toBe('answered');
  });

  it('applies interaction.changed events and forgets a removed session’s interactions', () => {
    const [changed, removed] = events(
      { kind: 'interaction.changed', interaction: interaction({ interactionId: 'i1', sessionId: 's9' }) },
      { kind: 'session.removed', sessionId: 's9' },
    );
    const state = reduceInteractionEvent(EMPTY_INTERACTIONS, changed!);
    expect(state.pendingIds).toEqual(['i1']);
    const after = reduceInteractionEvent(state, removed!);
    expect(after.pendingIds).toEqual([]);
    expect(after.byId).toEqual({});
  });
});
