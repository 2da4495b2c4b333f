import { describe, expect, it, vi } from 'vitest';
import { readRecordedAnswer, type FormRequest, type QuestionRequest } from '../../src-shared/interaction-model';
import { memoryDraftStorage } from '../platform/draft-storage';
import { initialFormDraft } from '../forms/interaction-draft';
import { interaction, session, turn } from './reducers/record-fixtures';
import { setupStore } from './test-store';

const form: FormRequest = {
  kind: 'form',
  title: 'Project',
  fields: [{ id: 'owner', label: 'Owner email', required: true, type: 'string', format: 'email' }],
};

describe('the interactions slice', () => {
  it('lists what waits across sessions and notifies about new waits', async () => {
    const { store, link, frames, notes } = setupStore();
    link.answer('interaction.list', () => ({
      ok: true,
      result: { interactions: [interaction({ interactionId: 'i1' })] },
    }));
    await store.getState().loadPendingInteractions();
    expect(store.getState().interactions.pendingIds).toEqual(['i1']);
    expect(notes).toEqual([]);
    link.push({ kind: 'session.changed', session: session({ sessionId: 's2', title: 'Deploy', revision: 1 }) });
    link.push({
      kind: 'interaction.changed',
      interaction: interaction({ interactionId: 'i2', sessionId: 's2', createdAt: 2000, updatedAt: 2000 }),
    });
    frames.flush();
    expect(store.getState().interactions.pendingIds).toEqual(['i1', 'i2']);
    expect(notes.map((note) => note.title)).toEqual(['Deploy is waiting for you']);
  });

  it('shows problems instead of sending an answer that does not pass, then sends the corrected one', async () => {
    const { store, link } = setupStore();
    link.answer('interaction.get', () => ({
      ok: true,
      result: { interaction: interaction({ interactionId: 'f1', request: form }) },
    }));
    await store.getState().ensureInteraction('f1');
    const draft = initialFormDraft(form);
    store.getState().editAnswer('f1', { ...draft, values: { owner: 'not-an-email' } });
    expect(await store.getState().answerFromDraft('f1')).toBe(false);
    expect(link.callsOf('interaction.answer')).toEqual([]);
    expect(store.getState().interactionForms.f1?.attempted).toBe(true);

    link.answer('interaction.answer', ({ interactionId, answer }) => ({
      ok: true,
      result: {
        interaction: interaction({
          interactionId,
          request: form,
          status: 'answered',
          answer: readRecordedAnswer(answer),
          updatedAt: 2000,
        }),
        turn: turn({ turnId: 't1', status: 'running' }),
      },
    }));
    store.getState().editAnswer('f1', { ...draft, values: { owner: 'ada@example.com' } });
    expect(await store.getState().answerFromDraft('f1')).toBe(true);
    expect(link.callsOf('interaction.answer')).toEqual([
      { interactionId: 'f1', answer: { action: 'accept', values: { owner: 'ada@example.com' } } },
    ]);
    expect(store.getState().interactions.byId.f1?.status).toBe('answered');
    expect(store.getState().interactionForms.f1).toBeUndefined();
  });

  it('keeps the host’s refusal next to the form and re-reads an interaction settled elsewhere', async () => {
    const { store, link } = setupStore();
    link.answer('interaction.get', () => ({ ok: true, result: { interaction: interaction({ interactionId: 'i1' }) } }));
    await store.getState().ensureInteraction('i1');
    link.answer('interaction.answer', () => ({
      ok: false,
      error: { code: 'operation_conflict', message: 'Already answered.' },
    }));
    link.answer('interaction.get', () => ({
      ok: true,
      result: { interaction: interaction({ interactionId: 'i1', status: 'answered', updatedAt: 3000 }) },
    }));
    await store.getState().answerInteraction('i1', { action: 'decline' });
    expect(store.getState().interactionForms.i1?.error).toBe('Already answered.');
    await vi.waitFor(() => expect(store.getState().interactions.byId.i1?.status).toBe('answered'));
  });

  it('keeps a half-filled answer across a reload (not a secret’s text), and forgets it once answered', async () => {
    const ask: QuestionRequest = {
      kind: 'question',
      questions: [
        {
          id: 'region',
          header: 'Region',
          prompt: 'Where?',
          options: [{ id: 'eu', label: 'Europe' }],
          multiple: false,
          allowOther: true,
          secret: false,
        },
        {
          id: 'token',
          header: 'Token',
          prompt: 'Token?',
          options: [],
          multiple: false,
          allowOther: true,
          secret: true,
        },
      ],
    };
    const draftStorage = memoryDraftStorage();
    const first = setupStore({ draftStorage });
    first.link.answer('interaction.get', () => ({
      ok: true,
      result: { interaction: interaction({ interactionId: 'q1', request: ask }) },
    }));
    await first.store.getState().ensureInteraction('q1');
    const draft = {
      kind: 'question' as const,
      choices: {
        region: { optionIds: [], other: true, text: 'Asia' },
        token: { optionIds: [], other: false, text: 's3cret' },
      },
    };
    first.store.getState().editAnswer('q1', draft);
    expect([...draftStorage.entries.values()].join('')).not.toContain('s3cret');

    // A reload: a new store over the same storage.
    const second = setupStore({ draftStorage });
    second.link.answer('interaction.get', () => ({
      ok: true,
      result: { interaction: interaction({ interactionId: 'q1', request: ask }) },
    }));
    await second.store.getState().ensureInteraction('q1');
    second.store.getState().restoreInteractionDraft('q1');
    expect(second.store.getState().interactionForms.q1?.draft).toEqual({
      kind: 'question',
      choices: {
        region: { optionIds: [], other: true, text: 'Asia' },
        token: { optionIds: [], other: false, text: '' },
      },
    });

    second.link.answer('interaction.answer', ({ interactionId, answer }) => ({
      ok: true,
      result: {
        interaction: interaction({
          interactionId,
          request: ask,
          status: 'answered',
          answer: readRecordedAnswer(answer),
          updatedAt: 2000,
        }),
        turn: turn({ turnId: 't1', status: 'running' }),
      },
    }));
    await second.store.getState().answerInteraction('q1', { action: 'decline' });
    expect(draftStorage.entries.size).toBe(0);
    const third = setupStore({ draftStorage });
    third.store.getState().restoreInteractionDraft('q1');
    expect(third.store.getState().interactionForms.q1).toBeUndefined();
  });

  it('ignores a stored draft it cannot read', () => {
    const draftStorage = memoryDraftStorage();
    draftStorage.write('cairn.interaction-draft.q9', '{"draft":{"kind":"nope"},"reason":1}');
    const { store } = setupStore({ draftStorage });
    store.getState().restoreInteractionDraft('q9');
    expect(store.getState().interactionForms.q9).toBeUndefined();
  });
});
