import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../testing/host-fixture';
import { ledgerKinds } from '../testing/record-fingerprint';
import { waitFor } from '../testing/wait-for';

let t: TestHost;
let sessionId: string;
beforeEach(async () => {
  t = await startTestHost();
  sessionId = (await t.call('session.create', {})).session.sessionId;
});
afterEach(async () => {
  await t.close();
});

const transcriptText = async () =>
  (await t.call('transcript.page', { sessionId, limit: 500 })).items.map((item) => `${item.kind}:${item.text}`);

describe('turn.start', () => {
  it('streams the scripted reply into the transcript and completes', async () => {
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'hello there' });
    const turn = await t.waitForTurn(sessionId, 't1', ['completed']);
    expect(turn.latestRun).toMatchObject({ status: 'completed', terminalReason: 'end_turn', attempt: 1 });
    expect(await transcriptText()).toEqual([
      'user_message:hello there',
      "assistant_message:You said: “hello there”. I'm Cairn's offline demo agent, so I answer from a script rather than a model.",
    ]);
    const deltas = t.events.filter((event) => event.kind === 'transcript.delta');
    expect(deltas.length).toBeGreaterThan(1);
    expect(ledgerKinds(t.dataDir, turn.latestRun.runId)).toEqual([
      'run_opened',
      'user_message',
      'step_started',
      ...Array<string>(deltas.length + 1).fill('assistant_text'),
      'usage',
      'run_terminal',
    ]);
  });

  it('a retry with the same turnId yields one turn and one user message', async () => {
    const first = await t.call('turn.start', { sessionId, turnId: 'same', text: 'hello' });
    const retry = await t.call('turn.start', { sessionId, turnId: 'same', text: 'hello' });
    expect(first.created).toBe(true);
    expect(retry.created).toBe(false);
    expect(retry.turn.latestRun.runId).toBe(first.turn.latestRun.runId);
    await t.waitForTurn(sessionId, 'same', ['completed']);
    const afterDone = await t.call('turn.start', { sessionId, turnId: 'same', text: 'hello' });
    expect(afterDone.created).toBe(false);
    const users = (await transcriptText()).filter((line) => line.startsWith('user_message'));
    expect(users).toEqual(['user_message:hello']);
    const conflict = await t.invoke('turn.start', { sessionId, turnId: 'same', text: 'something else' });
    expect(conflict.ok ? null : conflict.error.code).toBe('operation_conflict');
  });

  it('admits one active turn per session', async () => {
    await t.call('turn.start', { sessionId, turnId: 'held', text: '/hold' });
    const busy = await t.invoke('turn.start', { sessionId, turnId: 'second', text: 'hi' });
    expect(busy.ok ? null : busy.error.code).toBe('session_busy');
    const other = (await t.call('session.create', {})).session.sessionId;
    await t.call('turn.start', { sessionId: other, turnId: 'elsewhere', text: 'hi' });
    await t.waitForTurn(other, 'elsewhere', ['completed']);
    await t.call('turn.stop', { sessionId });
  });

  it('ends the run at the step budget', async () => {
    await t.call('turn.start', { sessionId, turnId: 's', text: '/steps 5', maxSteps: 3 });
    const turn = await t.waitForTurn(sessionId, 's', ['completed']);
    expect(turn.latestRun.terminalReason).toBe('max_steps');
    expect((await transcriptText()).at(-1)).toBe('assistant_message:step 1 step 2 step 3 ');
    await t.call('turn.start', { sessionId, turnId: 'ok', text: '/steps 3', maxSteps: 3 });
    expect((await t.waitForTurn(sessionId, 'ok', ['completed'])).latestRun.terminalReason).toBe('end_turn');
  });

  it('fails the run with the provider error of a /fail', async () => {
    await t.call('turn.start', { sessionId, turnId: 'f', text: '/fail bad_key The key was refused' });
    const turn = await t.waitForTurn(sessionId, 'f', ['failed']);
    expect(turn.latestRun).toMatchObject({
      terminalReason: 'provider_error',
      errorCode: 'bad_key',
      errorMessage: 'The key was refused',
    });
    expect((await t.call('session.get', { sessionId })).session.activity).toBe('failed');
  });
});

describe('turn.stop', () => {
  it('answers promptly on /hold, records cancelled with its source, and appends nothing after', async () => {
    await t.call('turn.start', { sessionId, turnId: 'held', text: '/hold' });
    await waitFor(async () => (await transcriptText()).some((line) => line.includes('Holding')), {
      message: 'the hold text',
    });
    const startedAt = performance.now();
    const stop = await t.call('turn.stop', { sessionId, source: 'keyboard' });
    const elapsed = performance.now() - startedAt;
    expect(elapsed).toBeLessThan(300);
    expect(stop.outcome).toBe('stopped');
    expect(stop.turn).toMatchObject({
      status: 'cancelled',
      latestRun: { status: 'cancelled', terminalReason: 'keyboard' },
    });
    const afterStop = await transcriptText();
    const eventsAfterStop = t.events.length;
    // The backend ignores the abort for a while and then emits late output; wait until it has let go.
    await t.host.close();
    const reopened = await startTestHost({ dataDir: t.dataDir });
    try {
      const page = await reopened.call('transcript.page', { sessionId, limit: 500 });
      expect(page.items.map((item) => `${item.kind}:${item.text}`)).toEqual(afterStop);
      expect(afterStop.join('')).not.toContain('late output');
      const kinds = ledgerKinds(t.dataDir, stop.turn?.latestRun.runId ?? '');
      expect(kinds.at(-1)).toBe('run_terminal');
      expect(kinds.filter((kind) => kind === 'run_terminal')).toHaveLength(1);
    } finally {
      await reopened.close();
    }
    expect(t.events.length).toBe(eventsAfterStop);
  });

  it('says what it found when nothing runs', async () => {
    expect((await t.call('turn.stop', { sessionId })).outcome).toBe('nothing_running');
    await t.call('turn.start', { sessionId, turnId: 'done', text: 'hi' });
    await t.waitForTurn(sessionId, 'done', ['completed']);
    const stop = await t.call('turn.stop', { sessionId, turnId: 'done' });
    expect(stop.outcome).toBe('already_terminal');
    expect(stop.turn?.status).toBe('completed');
  });

  it('stops only the named turn', async () => {
    await t.call('turn.start', { sessionId, turnId: 'first', text: 'hi' });
    await t.waitForTurn(sessionId, 'first', ['completed']);
    await t.call('turn.start', { sessionId, turnId: 'held', text: '/hold' });
    expect((await t.call('turn.stop', { sessionId, turnId: 'first' })).outcome).toBe('already_terminal');
    expect((await t.call('turn.query', { sessionId, turnId: 'held' })).turn.status).toBe('running');
    expect((await t.call('turn.stop', { sessionId, turnId: 'held' })).outcome).toBe('stopped');
  });

  it('cancels queued follow-ups so nothing starts by surprise', async () => {
    await t.call('turn.start', { sessionId, turnId: 'held', text: '/hold' });
    await t.call('turn.message.submit', { sessionId, messageId: 'm1', text: 'after', placement: 'next_turn' });
    const stop = await t.call('turn.stop', { sessionId });
    expect(stop.cancelledMessages.map((m) => [m.messageId, m.state, m.text])).toEqual([['m1', 'cancelled', 'after']]);
    expect((await t.call('turn.message.query', { sessionId, messageIds: ['m1'] })).messages[0]?.state).toBe(
      'cancelled',
    );
    expect((await t.call('session.get', { sessionId })).activeTurn).toBeNull();
  });
});

describe('turn.resume', () => {
  it('continues a stopped turn in a new run that knows it is a resume', async () => {
    await t.call('turn.start', { sessionId, turnId: 's', text: '/stream 40 20' });
    await waitFor(async () => (await transcriptText()).some((line) => line.includes('chunk 3/40')), {
      message: 'three chunks',
    });
    await t.call('turn.stop', { sessionId });
    const { turn } = await t.call('turn.resume', { sessionId, turnId: 's' });
    expect(turn.latestRun).toMatchObject({ attempt: 2, kind: 'resume', status: 'running' });
    const done = await t.waitForTurn(sessionId, 's', ['completed']);
    expect(done.runs.map((run) => run.status)).toEqual(['cancelled', 'completed']);
    const lines = await transcriptText();
    const text = lines.filter((line) => line.startsWith('assistant')).join('');
    // Where it picked up again is a marker between the parts of the answer, never answer text.
    expect(lines.filter((line) => line.startsWith('notice:'))).toEqual([
      'notice:Resumed: the previous attempt ended because you pressed Stop.',
    ]);
    expect(text).not.toContain('Resum');
    for (let index = 1; index <= 40; index += 1) expect(text).toContain(`chunk ${index}/40`);
    expect(text.match(/chunk 1\/40/g)).toHaveLength(1);
    const again = await t.invoke('turn.resume', { sessionId, turnId: 's' });
    expect(again.ok ? null : again.error.code).toBe('operation_conflict');
  });

  it('refuses while another turn runs', async () => {
    await t.call('turn.start', { sessionId, turnId: 'f', text: '/fail server_error boom' });
    await t.waitForTurn(sessionId, 'f', ['failed']);
    await t.call('turn.start', { sessionId, turnId: 'held', text: '/hold' });
    const busy = await t.invoke('turn.resume', { sessionId, turnId: 'f' });
    expect(busy.ok ? null : busy.error.code).toBe('session_busy');
    await t.call('turn.stop', { sessionId });
  });
});

describe('turn.message.submit', () => {
  it('starts at once when the session is idle, as the person’s own turn (the one way the app sends)', async () => {
    const submitted = await t.call('turn.message.submit', {
      sessionId,
      messageId: 'm0',
      text: 'now',
      placement: 'next_turn',
    });
    expect(submitted.disposition).toBe('started');
    expect(submitted.message).toMatchObject({ state: 'started', turnId: 'm0' });
    const done = await t.waitForTurn(sessionId, 'm0', ['completed']);
    expect(done.origin).toBe('user');
  });

  it('queues while a turn runs and starts each in order when the session frees', async () => {
    await t.call('turn.start', { sessionId, turnId: 'first', text: '/stream 5 30' });
    const a = await t.call('turn.message.submit', {
      sessionId,
      messageId: 'a',
      text: 'second',
      placement: 'next_turn',
    });
    const b = await t.call('turn.message.submit', { sessionId, messageId: 'b', text: 'third', placement: 'next_turn' });
    expect([a.disposition, b.disposition]).toEqual(['queued', 'queued']);
    const retry = await t.call('turn.message.submit', {
      sessionId,
      messageId: 'a',
      text: 'second',
      placement: 'next_turn',
    });
    expect(retry.message.state).toBe('queued');
    const conflict = await t.invoke('turn.message.submit', {
      sessionId,
      messageId: 'a',
      text: 'changed',
      placement: 'next_turn',
    });
    expect(conflict.ok ? null : conflict.error.code).toBe('operation_conflict');
    await t.waitForTurn(sessionId, 'b', ['completed']);
    const { messages } = await t.call('turn.message.query', { sessionId });
    expect(messages.map((m) => [m.messageId, m.state, m.turnId])).toEqual([
      ['a', 'started', 'a'],
      ['b', 'started', 'b'],
    ]);
    const users = (await transcriptText()).filter((line) => line.startsWith('user_message'));
    expect(users).toEqual(['user_message:/stream 5 30', 'user_message:second', 'user_message:third']);
    expect((await t.call('turn.query', { sessionId, turnId: 'a' })).turn.origin).toBe('queued_message');
  });

  it('edits and removes a follow-up while it waits, and refuses both once it has started or was removed', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'cairn-queue-edit-'));
    try {
      const busy = (await t.call('session.create', { workspacePath: workspace, permissionMode: 'full' })).session
        .sessionId;
      // The first turn runs until the test lets it end, so the queue is edited while it waits, however slow the machine.
      await t.call('turn.start', {
        sessionId: busy,
        turnId: 'first',
        text: '/tool run_shell {"command":"until [ -e go ]; do sleep 0.05; done"}',
      });
      for (const [messageId, text] of [
        ['a', 'sumarise it'],
        ['b', 'and delete everything'],
        ['c', 'then test it'],
      ]) {
        await t.call('turn.message.submit', {
          sessionId: busy,
          messageId: messageId!,
          text: text!,
          placement: 'next_turn',
        });
      }
      expect(
        (await t.call('turn.message.edit', { sessionId: busy, messageId: 'a', text: 'summarise it' })).message,
      ).toMatchObject({ state: 'queued', text: 'summarise it' });
      expect((await t.call('turn.message.remove', { sessionId: busy, messageId: 'b' })).message).toMatchObject({
        state: 'cancelled',
      });
      const events = t.events.flatMap((event) =>
        event.kind === 'queue.changed' && event.message.sessionId === busy
          ? [`${event.message.messageId}:${event.message.state}:${event.message.text}`]
          : [],
      );
      expect(events).toContain('a:queued:summarise it');
      expect(events).toContain('b:cancelled:and delete everything');
      const missing = await t.invoke('turn.message.edit', { sessionId: busy, messageId: 'nope', text: 'x' });
      expect(missing.ok ? null : missing.error.code).toBe('not_found');

      writeFileSync(join(workspace, 'go'), '');
      await t.waitForTurn(busy, 'c', ['completed']);
      const { messages } = await t.call('turn.message.query', { sessionId: busy });
      expect(messages.map((m) => [m.messageId, m.state, m.text])).toEqual([
        ['a', 'started', 'summarise it'],
        ['b', 'cancelled', 'and delete everything'],
        ['c', 'started', 'then test it'],
      ]);
      const users = (await t.call('transcript.page', { sessionId: busy, limit: 500 })).items
        .filter((item) => item.kind === 'user_message')
        .map((item) => item.text);
      expect(users.slice(1)).toEqual(['summarise it', 'then test it']);
      const late = await t.invoke('turn.message.edit', { sessionId: busy, messageId: 'a', text: 'too late' });
      expect(late.ok ? null : late.error).toEqual({
        code: 'operation_conflict',
        message: 'That follow-up has already started, so it can no longer be edited.',
      });
      const again = await t.invoke('turn.message.remove', { sessionId: busy, messageId: 'b' });
      expect(again.ok ? null : again.error.code).toBe('operation_conflict');
      expect((await t.call('turn.message.query', { sessionId: busy, messageIds: ['a'] })).messages[0]?.text).toBe(
        'summarise it',
      );
    } finally {
      rmSync(workspace, { recursive: true, force: true });
    }
  });

  it('refuses a message id that an existing turn already uses', async () => {
    await t.call('turn.start', { sessionId, turnId: 'taken', text: 'hi' });
    const outcome = await t.invoke('turn.message.submit', {
      sessionId,
      messageId: 'taken',
      text: 'x',
      placement: 'next_turn',
    });
    expect(outcome.ok ? null : outcome.error.code).toBe('operation_conflict');
  });
});

describe('change events', () => {
  it('carry a strictly increasing seq and the host epoch', async () => {
    await t.call('turn.start', { sessionId, turnId: 's', text: '/stream 20 5' });
    await t.waitForTurn(sessionId, 's', ['completed']);
    const seqs = t.events.map((event) => event.seq);
    expect(seqs.length).toBeGreaterThan(10);
    seqs.forEach((seq, index) => expect(seq).toBe(index + 1));
    expect(new Set(t.events.map((event) => event.hostEpoch))).toEqual(new Set(['epoch-1']));
  });

  it('replayed deltas rebuild exactly what a query returns', async () => {
    await t.call('turn.start', { sessionId, turnId: 's', text: '/stream 30 2' });
    await t.waitForTurn(sessionId, 's', ['completed']);
    const texts = new Map<string, string>();
    for (const event of t.events) {
      if (event.kind === 'transcript.appended') texts.set(event.item.itemId, event.item.text);
      if (event.kind === 'transcript.delta') {
        const next = (texts.get(event.itemId) ?? '') + event.text;
        expect(next.length).toBe(event.length);
        texts.set(event.itemId, next);
      }
    }
    const page = await t.call('transcript.page', { sessionId });
    expect(page.items.map((item) => texts.get(item.itemId))).toEqual(page.items.map((item) => item.text));
  });
});
