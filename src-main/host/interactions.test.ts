import { dataDirText } from '../testing/data-dir-text';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InteractionAnswer } from '../../src-shared/interaction-model';
import { startTestHost, type TestHost } from '../testing/host-fixture';
import { recordFingerprint } from '../testing/record-fingerprint';

let t: TestHost;
let sessionId: string;
beforeEach(async () => {
  t = await startTestHost();
  sessionId = (await t.call('session.create', {})).session.sessionId;
});
afterEach(async () => {
  await t.close();
});

async function ask(text: string, turnId = 'ask') {
  await t.call('turn.start', { sessionId, turnId, text });
  await t.waitForTurn(sessionId, turnId, ['waiting']);
  const { interactions } = await t.call('interaction.list', { sessionId, status: 'pending' });
  expect(interactions).toHaveLength(1);
  return interactions[0]!;
}

const GOOD_ASK: InteractionAnswer = {
  action: 'accept',
  answers: {
    target: { optionIds: ['production'] },
    checks: { optionIds: ['lint', 'unit'], text: 'smoke' },
    notes: { optionIds: [], text: 'Ship before Friday' },
  },
};

const lastAssistant = async () =>
  (await t.call('transcript.page', { sessionId, limit: 100 })).items
    .filter((item) => item.kind === 'assistant_message')
    .at(-1)?.text ?? '';

describe('interactions', () => {
  it('/ask waits for the person, then continues the same turn in a new run with the answer', async () => {
    const interaction = await ask('/ask');
    expect(interaction.request.kind).toBe('question');
    const waiting = await t.call('session.get', { sessionId });
    expect(waiting.session.activity).toBe('waiting');
    expect(waiting.activeTurn?.status).toBe('waiting');
    const askItem = waiting.transcript.items.find((item) => item.kind === 'tool_call');
    expect(askItem?.data).toMatchObject({ toolName: 'ask_user', interactionId: interaction.interactionId });

    const result = await t.call('interaction.answer', { interactionId: interaction.interactionId, answer: GOOD_ASK });
    expect(result.interaction.status).toBe('answered');
    const turn = await t.waitForTurn(sessionId, 'ask', ['completed']);
    expect(turn.runs.map((run) => [run.kind, run.status, run.terminalReason])).toEqual([
      ['initial', 'completed', 'interaction_answered'],
      ['continuation', 'completed', 'end_turn'],
    ]);
    const summary = await lastAssistant();
    expect(summary).toContain('**Deploy target**: Production');
    expect(summary).toContain('**Checks**: Lint, Unit tests, "smoke"');
    expect(summary).toContain('Ship before Friday');
  });

  it.each<[string, InteractionAnswer]>([
    [
      'a wrong option id',
      { action: 'accept', answers: { ...(GOOD_ASK as { answers: object }).answers, target: { optionIds: ['moon'] } } },
    ],
    ['a missing answer', { action: 'accept', answers: { target: { optionIds: ['staging'] } } }],
    [
      'an unknown question',
      { action: 'accept', answers: { ...(GOOD_ASK as { answers: object }).answers, extra: { optionIds: [] } } },
    ],
    ['form values for a question', { action: 'accept', values: { name: 'x' } }],
  ])('refuses %s and records nothing', async (_name, answer) => {
    const interaction = await ask('/ask');
    const before = recordFingerprint(t.dataDir);
    const outcome = await t.invoke('interaction.answer', { interactionId: interaction.interactionId, answer });
    expect(outcome.ok ? null : outcome.error.code).toBe('invalid_input');
    expect(recordFingerprint(t.dataDir)).toBe(before);
  });

  it('the first answer wins: the same answer again returns the same result, a different one conflicts', async () => {
    const interaction = await ask('/ask');
    const first = await t.call('interaction.answer', { interactionId: interaction.interactionId, answer: GOOD_ASK });
    const again = await t.call('interaction.answer', { interactionId: interaction.interactionId, answer: GOOD_ASK });
    expect(again.interaction).toEqual(first.interaction);
    expect(again.turn.turnId).toBe('ask');
    const different = await t.invoke('interaction.answer', {
      interactionId: interaction.interactionId,
      answer: { action: 'decline' },
    });
    expect(different.ok ? null : different.error.code).toBe('operation_conflict');
    const turn = await t.waitForTurn(sessionId, 'ask', ['completed']);
    expect(turn.runs).toHaveLength(2);
  });

  it('/form validates every field kind on the host and accepts a corrected answer', async () => {
    const interaction = await ask('/form');
    const values = {
      name: 'Cairn',
      description: 'A desktop\nworkspace',
      owner: 'ada@example.com',
      repository: 'https://example.com/cairn.git',
      start: '2026-12-01',
      kickoff: '2026-12-01T09:30',
      budget: 1500.5,
      team: 4,
      public: true,
      priority: 'high',
      platforms: ['web', 'desktop'],
    };
    const bads: Array<Record<string, string | number>> = [
      { team: 0 },
      { team: 2.5 },
      { owner: 'nope' },
      { priority: 'urgent' },
      { start: '2026-13-01' },
      { color: 'red' },
    ];
    for (const bad of bads) {
      const outcome = await t.invoke('interaction.answer', {
        interactionId: interaction.interactionId,
        answer: { action: 'accept', values: { ...values, ...bad } },
      });
      expect(outcome.ok ? null : outcome.error.code).toBe('invalid_input');
    }
    const missing = await t.invoke('interaction.answer', {
      interactionId: interaction.interactionId,
      answer: { action: 'accept', values: { name: 'Cairn' } },
    });
    expect(missing.ok ? null : missing.error.message).toMatch(/Owner email is required/);
    await t.call('interaction.answer', {
      interactionId: interaction.interactionId,
      answer: { action: 'accept', values },
    });
    await t.waitForTurn(sessionId, 'ask', ['completed']);
    const summary = await lastAssistant();
    expect(summary).toContain('**team**: 4');
    expect(summary).toContain('**platforms**: web, desktop');
  });

  it('a pending interaction survives a restart and answering it continues the work', async () => {
    const interaction = await ask('/ask');
    await t.host.close();
    const reopened = await startTestHost({ dataDir: t.dataDir });
    try {
      const { interaction: still } = await reopened.call('interaction.get', {
        interactionId: interaction.interactionId,
      });
      expect(still.status).toBe('pending');
      expect((await reopened.call('turn.query', { sessionId, turnId: 'ask' })).turn.status).toBe('waiting');
      await reopened.call('interaction.answer', { interactionId: interaction.interactionId, answer: GOOD_ASK });
      await reopened.waitForTurn(sessionId, 'ask', ['completed']);
      const page = await reopened.call('transcript.page', { sessionId });
      expect(page.items.at(-1)?.text).toContain('**Deploy target**: Production');
    } finally {
      await reopened.close();
    }
  });

  it('Stop while waiting closes the interaction (turn_stopped) and cancels the turn', async () => {
    const interaction = await ask('/ask');
    const stop = await t.call('turn.stop', { sessionId });
    expect(stop.outcome).toBe('stopped');
    expect(stop.turn?.status).toBe('cancelled');
    const { interaction: closed } = await t.call('interaction.get', { interactionId: interaction.interactionId });
    expect(closed).toMatchObject({ status: 'closed', closeReason: 'turn_stopped' });
    const late = await t.invoke('interaction.answer', { interactionId: interaction.interactionId, answer: GOOD_ASK });
    expect(late.ok ? null : late.error.message).toMatch(/closed \(turn_stopped\)/);
  });

  it('archiving the session closes it with session_archived', async () => {
    const interaction = await ask('/ask');
    await t.call('session.archive', { sessionId, archived: true });
    expect((await t.call('interaction.get', { interactionId: interaction.interactionId })).interaction).toMatchObject({
      status: 'closed',
      closeReason: 'session_archived',
    });
  });

  it('a new message while waiting supersedes the question and runs', async () => {
    const interaction = await ask('/ask');
    await t.call('turn.start', { sessionId, turnId: 'next', text: 'never mind, just say hi' });
    expect(
      (await t.call('interaction.get', { interactionId: interaction.interactionId })).interaction.closeReason,
    ).toBe('superseded');
    await t.waitForTurn(sessionId, 'next', ['completed']);
  });

  it('decline continues the turn and tells the agent', async () => {
    const interaction = await ask('/form');
    await t.call('interaction.answer', { interactionId: interaction.interactionId, answer: { action: 'decline' } });
    await t.waitForTurn(sessionId, 'ask', ['completed']);
    expect(await lastAssistant()).toMatch(/declined/);
    expect((await t.call('interaction.get', { interactionId: interaction.interactionId })).interaction.status).toBe(
      'declined',
    );
  });

  it('a secret answer never appears in clear in the transcript, events, results or any file', async () => {
    const SECRET = 'tok-3f9a1c77-very-secret';
    const interaction = await ask('/ask-secret');
    const result = await t.call('interaction.answer', {
      interactionId: interaction.interactionId,
      answer: { action: 'accept', answers: { token: { optionIds: [], text: SECRET }, region: { optionIds: ['eu'] } } },
    });
    await t.waitForTurn(sessionId, 'ask', ['completed']);
    const page = await t.call('transcript.page', { sessionId });
    const listed = await t.call('interaction.list', {});
    const visible = JSON.stringify([result, page, listed, t.events]);
    expect(visible).not.toContain(SECRET);
    expect(visible).toContain('••••••');
    expect(await lastAssistant()).toContain('**Deploy token**: ••••••');
    await t.host.close();
    expect(dataDirText(t.dataDir)).not.toContain(SECRET);
  });
});
