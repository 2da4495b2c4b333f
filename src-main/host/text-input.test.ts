import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LONE_SURROGATE_MESSAGE } from '../../src-shared/well-formed-string';
import { startTestHost, type TestHost } from '../testing/host-fixture';
import { recordFingerprint } from '../testing/record-fingerprint';

let t: TestHost;
let sessionId: string;
beforeEach(async () => {
  t = await startTestHost();
  sessionId = (await t.call('session.create', { title: 'Plain' })).session.sessionId;
});
afterEach(async () => {
  await t.close();
});

/** Text a browser can send but no database can store: half of a surrogate pair. */
const LONE = ['A\ud800B', 'tail \udc00', '\udbff'];

describe('text with a lone UTF-16 surrogate', () => {
  it.each(LONE)('is refused with invalid_input everywhere a person types, and nothing is written (%#)', async (bad) => {
    const { interactions: none } = await t.call('interaction.list', { sessionId, status: 'pending' });
    expect(none).toHaveLength(0);
    await t.call('turn.start', { sessionId, turnId: 'ask', text: '/ask' });
    await t.waitForTurn(sessionId, 'ask', ['waiting']);
    const [interaction] = (await t.call('interaction.list', { sessionId, status: 'pending' })).interactions;
    const before = recordFingerprint(t.dataDir);
    const attempts = [
      t.host.dispatch('session.create', { title: bad }, { transport: 'direct', connectionId: 'test' }),
      t.host.dispatch('session.rename', { sessionId, title: bad }, { transport: 'direct', connectionId: 'test' }),
      t.host.dispatch(
        'turn.start',
        { sessionId, turnId: 'bad', text: bad },
        { transport: 'direct', connectionId: 'test' },
      ),
      t.host.dispatch(
        'turn.message.submit',
        { sessionId, messageId: 'm', text: bad, placement: 'next_turn' },
        { transport: 'direct', connectionId: 'test' },
      ),
      t.host.dispatch(
        'goal.arm',
        { sessionId, objective: bad, tokenBudget: null, maxIterations: null },
        { transport: 'direct', connectionId: 'test' },
      ),
      t.host.dispatch(
        'interaction.answer',
        {
          interactionId: interaction!.interactionId,
          answer: { action: 'accept', answers: { notes: { optionIds: [], text: bad } } },
        },
        { transport: 'direct', connectionId: 'test' },
      ),
      t.host.dispatch(
        'connection.create',
        { name: bad, providerType: 'openai' },
        { transport: 'direct', connectionId: 'test' },
      ),
    ];
    for (const outcome of await Promise.all(attempts)) {
      expect(outcome).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
      expect(outcome.ok ? '' : outcome.error.message).toContain(LONE_SURROGATE_MESSAGE);
    }
    expect(recordFingerprint(t.dataDir)).toBe(before);
  });

  it('a well-formed pair (an emoji) is kept exactly', async () => {
    const { session } = await t.call('session.rename', { sessionId, title: 'Rocket \ud83d\ude80 notes' });
    expect(session.title).toBe('Rocket 🚀 notes');
    expect((await t.call('session.get', { sessionId })).session.title).toBe('Rocket 🚀 notes');
  });
});
