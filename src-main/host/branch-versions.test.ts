import { afterEach, describe, expect, it } from 'vitest';
import { OFFLINE_DEMO_CONNECTION_ID } from '../../src-shared/connection-model';
import type { TranscriptItem } from '../../src-shared/model';
import { startTestHost, type TestHost } from '../testing/host-fixture';

const hosts: TestHost[] = [];
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close();
});

async function conversation(t: TestHost, turns: number) {
  const { session } = await t.call('session.create', { connectionId: OFFLINE_DEMO_CONNECTION_ID, title: 'Plans' });
  for (let n = 1; n <= turns; n += 1) {
    await t.call('turn.start', { sessionId: session.sessionId, turnId: `t${n}`, text: `message ${n}` });
    await t.waitForTurn(session.sessionId, `t${n}`, ['completed']);
  }
  return session.sessionId;
}

const itemsOf = async (t: TestHost, sessionId: string) =>
  (await t.call('transcript.page', { sessionId, limit: 500 })).items;
const find = (items: readonly TranscriptItem[], kind: string, text: string) => {
  const item = items.find((candidate) => candidate.kind === kind && candidate.text.includes(text));
  if (item === undefined) throw new Error(`no ${kind} "${text}"`);
  return item;
};

describe('the versions of a turn across a branch family', () => {
  it('lists the original and each branch made at the same point, oldest first, from every session of the family', async () => {
    const t = await startTestHost();
    hosts.push(t);
    const source = await conversation(t, 3);
    const items = await itemsOf(t, source);
    const branch = async (atItemId: string, mode: 'edit' | 'regenerate', requestId: string, text?: string) => {
      const made = await t.call('session.branch', {
        sessionId: source,
        atItemId,
        mode,
        requestId,
        ...(text === undefined ? {} : { text }),
      });
      await t.waitForTurn(made.session.sessionId, requestId, ['completed']);
      return made.session.sessionId;
    };
    const edited = await branch(find(items, 'user_message', 'message 2').itemId, 'edit', 'edit-2', 'message 2, edited');
    const regenerated = await branch(find(items, 'assistant_message', 'message 2').itemId, 'regenerate', 'regen-2');
    const later = await branch(find(items, 'user_message', 'message 3').itemId, 'edit', 'edit-3', 'message 3, edited');

    const second = (sessionId: string, turnId: string, origin: string) =>
      expect.objectContaining({ sessionId, turnId, origin });
    const fromSource = await t.call('session.branches', { sessionId: source });
    expect(fromSource.versions).toEqual([
      {
        turnId: 't2',
        index: 0,
        versions: [
          second(source, 't2', 'original'),
          second(edited, 'edit-2', 'edit'),
          second(regenerated, 'regen-2', 'regenerate'),
        ],
      },
      { turnId: 't3', index: 0, versions: [second(source, 't3', 'original'), second(later, 'edit-3', 'edit')] },
    ]);
    // Each version names the message and the answer to open in its session.
    expect(fromSource.versions[0]?.versions[0]).toMatchObject({
      messageItemId: find(items, 'user_message', 'message 2').itemId,
      answerItemId: find(items, 'assistant_message', 'message 2').itemId,
    });
    const editedItems = await itemsOf(t, edited);
    expect(fromSource.versions[0]?.versions[1]).toMatchObject({
      messageItemId: find(editedItems, 'user_message', 'message 2, edited').itemId,
      answerItemId: find(editedItems, 'assistant_message', 'message 2, edited').itemId,
    });

    // From a branch: the same versions, with its own marked; the original opens in the source.
    expect((await t.call('session.branches', { sessionId: edited })).versions).toEqual([
      {
        turnId: 'edit-2',
        index: 1,
        versions: [
          second(source, 't2', 'original'),
          second(edited, 'edit-2', 'edit'),
          second(regenerated, 'regen-2', 'regenerate'),
        ],
      },
    ]);
    // A branch made later holds the original turn 2 as a copy: its own version of turn 2 is itself.
    expect((await t.call('session.branches', { sessionId: later })).versions).toEqual([
      {
        turnId: 't2',
        index: 0,
        versions: [
          second(later, 't2', 'original'),
          second(edited, 'edit-2', 'edit'),
          second(regenerated, 'regen-2', 'regenerate'),
        ],
      },
      { turnId: 'edit-3', index: 1, versions: [second(source, 't3', 'original'), second(later, 'edit-3', 'edit')] },
    ]);
    // A session with no branches has no versions.
    const alone = await conversation(t, 1);
    expect((await t.call('session.branches', { sessionId: alone })).versions).toEqual([]);
  });

  it('names the session a branch was made from on its record (for the sidebar), and nothing once that session is deleted', async () => {
    const t = await startTestHost();
    hosts.push(t);
    const source = await conversation(t, 1);
    const answer = find(await itemsOf(t, source), 'assistant_message', 'message 1');
    const made = await t.call('session.branch', {
      sessionId: source,
      atItemId: answer.itemId,
      mode: 'regenerate',
      requestId: 'regen-1',
    });
    await t.waitForTurn(made.session.sessionId, 'regen-1', ['completed']);
    const listed = async () =>
      Object.fromEntries(
        (await t.call('session.list', {})).sessions.map((session) => [session.sessionId, session.branchOf]),
      );
    expect(await listed()).toEqual({ [source]: null, [made.session.sessionId]: source });
    await t.call('session.remove', { sessionId: source });
    expect(await listed()).toEqual({ [made.session.sessionId]: null });
  });
});
