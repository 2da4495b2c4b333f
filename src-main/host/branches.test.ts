import { afterEach, describe, expect, it } from 'vitest';
import { OFFLINE_DEMO_CONNECTION_ID } from '../../src-shared/connection-model';
import { WORKHUB_SESSION_ID } from '../../src-shared/workhub-model';
import type { Stores } from '../storage/stores';
import { startTestHost, tempDataDir, type TestHost } from '../testing/host-fixture';

const hosts: TestHost[] = [];
const cleanups: Array<() => void> = [];
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close();
  cleanups.splice(0).forEach((cleanup) => cleanup());
});

async function host(options: Parameters<typeof startTestHost>[0] = {}) {
  const t = await startTestHost(options);
  hosts.push(t);
  return t;
}

/** A session with `turns` completed turns "message N" → scripted reply. */
async function conversation(t: TestHost, turns: number) {
  const { session } = await t.call('session.create', { connectionId: OFFLINE_DEMO_CONNECTION_ID, title: 'Plans' });
  for (let n = 1; n <= turns; n += 1) {
    await t.call('turn.start', { sessionId: session.sessionId, turnId: `t${n}`, text: `message ${n}` });
    await t.waitForTurn(session.sessionId, `t${n}`, ['completed']);
  }
  const items = (await t.call('transcript.page', { sessionId: session.sessionId, limit: 500 })).items;
  return { sessionId: session.sessionId, items };
}

const texts = async (t: TestHost, sessionId: string) =>
  (await t.call('transcript.page', { sessionId, limit: 500 })).items.map((item) => [
    item.kind,
    item.text.startsWith('You said') ? item.text.slice(0, 30) : item.text,
  ]);

describe('branches', () => {
  it('Edit copies the conversation before the edited message and runs the edited text; the source shows the branch', async () => {
    const t = await host();
    const source = await conversation(t, 3);
    const second = source.items.find((item) => item.kind === 'user_message' && item.text === 'message 2');
    if (second === undefined) throw new Error('no message 2');
    const made = await t.call('session.branch', {
      sessionId: source.sessionId,
      atItemId: second.itemId,
      mode: 'edit',
      text: 'message 2, edited',
      requestId: 'req-1',
    });
    expect(made.created).toBe(true);
    expect(made.session.title).toBe('Plans (branch)');
    await t.waitForTurn(made.session.sessionId, 'req-1', ['completed']);
    expect(await texts(t, made.session.sessionId)).toEqual([
      ['user_message', 'message 1'],
      ['assistant_message', "You said: “message 1”. I'm Cai"],
      ['user_message', 'message 2, edited'],
      ['assistant_message', 'You said: “message 2, edited”.'],
    ]);
    // The copied turn keeps its status; the source is untouched.
    const page = await t.call('transcript.page', { sessionId: made.session.sessionId });
    expect(page.turns.find((turn) => turn.turnId === 't1')?.status).toBe('completed');
    expect((await t.call('transcript.page', { sessionId: source.sessionId, limit: 500 })).items).toHaveLength(6);

    const links = await t.call('session.branches', { sessionId: made.session.sessionId });
    expect(links.branchedFrom).toMatchObject({
      sourceSessionId: source.sessionId,
      sourceTitle: 'Plans',
      atItemId: second.itemId,
      mode: 'edit',
      state: 'ready',
    });
    const back = await t.call('session.branches', { sessionId: source.sessionId });
    expect(back.branches).toEqual([
      expect.objectContaining({ branchSessionId: made.session.sessionId, atItemId: second.itemId, mode: 'edit' }),
    ]);
  });

  it('Regenerate re-runs the request of the answer in a branch; the same request id returns the same branch', async () => {
    const t = await host();
    const source = await conversation(t, 2);
    const answer = source.items.filter((item) => item.kind === 'assistant_message').at(-1);
    if (answer === undefined) throw new Error('no answer');
    const input = {
      sessionId: source.sessionId,
      atItemId: answer.itemId,
      mode: 'regenerate' as const,
      requestId: 'req-2',
    };
    const made = await t.call('session.branch', input);
    await t.waitForTurn(made.session.sessionId, 'req-2', ['completed']);
    expect((await texts(t, made.session.sessionId)).map(([kind]) => kind)).toEqual([
      'user_message',
      'assistant_message',
      'user_message',
      'assistant_message',
    ]);
    expect((await texts(t, made.session.sessionId))[2]).toEqual(['user_message', 'message 2']);

    const again = await t.call('session.branch', input);
    expect(again).toMatchObject({ created: false, session: { sessionId: made.session.sessionId } });
    expect((await t.call('session.list', {})).sessions).toHaveLength(2);
    const different = await t.invoke('session.branch', {
      ...input,
      atItemId: source.items[1]?.itemId ?? '',
      mode: 'regenerate',
    });
    expect(different).toMatchObject({ ok: false, error: { code: 'operation_conflict' } });
  });

  it('refuses to edit an answer or regenerate a message, and names a missing message', async () => {
    const t = await host();
    const source = await conversation(t, 1);
    const [question, answer] = source.items;
    if (question === undefined || answer === undefined) throw new Error('no items');
    expect(
      await t.invoke('session.branch', {
        sessionId: source.sessionId,
        atItemId: answer.itemId,
        mode: 'edit',
        text: 'x',
        requestId: 'a',
      }),
    ).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(
      await t.invoke('session.branch', {
        sessionId: source.sessionId,
        atItemId: question.itemId,
        mode: 'regenerate',
        requestId: 'b',
      }),
    ).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(
      await t.invoke('session.branch', {
        sessionId: source.sessionId,
        atItemId: 'nope',
        mode: 'regenerate',
        requestId: 'c',
      }),
    ).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(
      await t.invoke('session.branch', {
        sessionId: WORKHUB_SESSION_ID,
        atItemId: 'x',
        mode: 'regenerate',
        requestId: 'd',
      }),
    ).toMatchObject({
      ok: false,
      error: { code: 'operation_unavailable' },
    });
  });

  it('a copy cut by a crash mid-way is finished at the next start, and the replayed request then runs it', async () => {
    const temp = tempDataDir();
    cleanups.push(temp.cleanup);
    let chunks = 0;
    const crashOnSecondChunk = (stores: Stores): Stores => ({
      ...stores,
      branches: {
        ...stores.branches,
        copyItems(branch, limit) {
          chunks += 1;
          if (chunks === 2) throw new Error('injected crash mid-copy');
          return stores.branches.copyItems(branch, limit);
        },
      },
    });
    const first = await startTestHost({ dataDir: temp.dir, branchCopyChunk: 2, wrapStores: crashOnSecondChunk });
    const source = await conversation(first, 4);
    const last = source.items.filter((item) => item.kind === 'user_message').at(-1);
    if (last === undefined) throw new Error('no message');
    const input = {
      sessionId: source.sessionId,
      atItemId: last.itemId,
      mode: 'edit' as const,
      text: 'message 4, edited',
      requestId: 'req-crash',
    };
    expect(await first.invoke('session.branch', input)).toMatchObject({
      ok: false,
      error: { code: 'internal_failure' },
    });
    const partial = (await first.call('session.list', {})).sessions.find(
      (session) => session.sessionId !== source.sessionId,
    );
    if (partial === undefined) throw new Error('the branch session was not written');
    expect((await first.call('transcript.page', { sessionId: partial.sessionId })).items).toHaveLength(2);
    expect((await first.call('session.branches', { sessionId: partial.sessionId })).branchedFrom?.state).toBe(
      'copying',
    );
    await first.close();

    const second = await host({ dataDir: temp.dir, branchCopyChunk: 2 });
    expect((await second.call('session.branches', { sessionId: partial.sessionId })).branchedFrom?.state).toBe('ready');
    expect(
      (await second.call('transcript.page', { sessionId: partial.sessionId })).items.map((item) =>
        item.text.slice(0, 9),
      ),
    ).toEqual(['message 1', 'You said:', 'message 2', 'You said:', 'message 3', 'You said:']);
    // Recovery starts nothing by itself; the replayed request runs the edited message.
    expect((await second.call('session.get', { sessionId: partial.sessionId })).activeTurn).toBeNull();
    const replayed = await second.call('session.branch', input);
    expect(replayed).toMatchObject({ created: false, session: { sessionId: partial.sessionId } });
    await second.waitForTurn(partial.sessionId, 'req-crash', ['completed']);
    expect((await second.call('transcript.page', { sessionId: partial.sessionId })).items).toHaveLength(8);
  });

  it('a copy cut by a crash whose source was deleted since is removed at the next start', async () => {
    const temp = tempDataDir();
    cleanups.push(temp.cleanup);
    const first = await startTestHost({
      dataDir: temp.dir,
      branchCopyChunk: 1,
      wrapStores: (stores) => ({
        ...stores,
        branches: {
          ...stores.branches,
          copyItems: () => {
            throw new Error('injected crash');
          },
        },
      }),
    });
    const source = await conversation(first, 2);
    const answer = source.items.at(-1);
    await first.invoke('session.branch', {
      sessionId: source.sessionId,
      atItemId: answer?.itemId ?? '',
      mode: 'regenerate',
      requestId: 'req-gone',
    });
    await first.call('session.remove', { sessionId: source.sessionId });
    await first.close();
    const second = await host({ dataDir: temp.dir });
    expect((await second.call('session.list', {})).sessions).toEqual([]);
  });
});
