import { describe, expect, it, vi } from 'vitest';
import type { FormRequest } from '../../src-shared/interaction-model';
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
    link.answer('interaction.list', () => ({ ok: true, result: { interactions: [interaction({ interactionId: 'i1' })] } }));
    await store.getState().loadPendingInteractions();
    expect(store.getState().interactions.pendingIds).toEqual(['i1']);
    expect(notes).toEqual([]);
    link.push({ kind: 'session.changed', session: session({ sessionId: 's2', title: 'Deploy', revision: 1 }) });
    link.push({ kind: 'interaction.changed', interaction: interaction({ interactionId: 'i2', sessionId: 's2', createdAt: 2000, updatedAt: 2000 }) });
    frames.flush();
    expect(store.getState().interactions.pendingIds).toEqual(['i1', 'i2']);
    expect(notes.map((note) => note.title)).toEqual(['Deploy is waiting for you']);
  });

  it('shows problems instead of sending an answer that does not pass, then sends the corrected one', async () => {
    const { store, link } = setupStore();
    link.answer('interaction.get', () => ({ ok: true, result: { interaction: interaction({ interactionId: 'f1', request: form }) } }));
    await store.getState().ensureInteraction('f1');
    const draft = initialFormDraft(form);
    store.getState().editAnswer('f1', { ...draft, values: { owner: 'not-an-email' } });
    await store.getState().submitAnswer('f1');
    expect(link.callsOf('interaction.answer')).toEqual([]);
    expect(store.getState().interactionForms.f1?.attempted).toBe(true);

    link.answer('interaction.answer', ({ interactionId, answer }) => ({
      ok: true,
      result: { interaction: interaction({ interactionId, request: form, status: 'answered', answer, updatedAt: 2000 }), turn: turn({ turnId: 't1', status: 'running' }) },
    }));
    store.getState().editAnswer('f1', { ...draft, values: { owner: 'ada@example.com' } });
    await store.getState().submitAnswer('f1');
    expect(link.callsOf('interaction.answer')).toEqual([{ interactionId: 'f1', answer: { action: 'accept', values: { owner: 'ada@example.com' } } }]);
    expect(store.getState().interactions.byId.f1?.status).toBe('answered');
    expect(store.getState().interactionForms.f1).toBeUndefined();
  });

  it('keeps the host’s refusal next to the form and re-reads an interaction settled elsewhere', async () => {
    const { store, link } = setupStore();
    link.answer('interaction.get', () => ({ ok: true, result: { interaction: interaction({ interactionId: 'i1' }) } }));
    await store.getState().ensureInteraction('i1');
    link.answer('interaction.answer', () => ({ ok: false, error: { code: 'operation_conflict', message: 'Already answered.' } }));
    link.answer('interaction.get', () => ({ ok: true, result: { interaction: interaction({ interactionId: 'i1', status: 'answered', updatedAt: 3000 }) } }));
    await store.getState().respond('i1', { action: 'decline' });
    expect(store.getState().interactionForms.i1?.error).toBe('Already answered.');
    await vi.waitFor(() => expect(store.getState().interactions.byId.i1?.status).toBe('answered'));
  });
});
