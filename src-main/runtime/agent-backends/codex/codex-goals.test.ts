import { describe, expect, it } from 'vitest';
import { useCodexSessions } from '../../../testing/codex-sessions-fixture';
import { lastUserText, streamReply, textReply, toolCallReply } from '../../../testing/provider-servers';
import { waitFor } from '../../../testing/wait-for';

/** Cairn's goals and WorkHub delegations run through the real Codex: goal turns as Codex's own, clearing, structured answers. */

const codex = useCodexSessions();
const { codexSession, turnReaches, items } = codex;

describe('Codex goals', { timeout: 60_000 }, () => {
  it('a Cairn goal runs as goal turns through Codex; Codex marking it complete completes the Cairn goal', async () => {
    const { sessionId } = await codexSession('full');
    const base = codex.server.modelCalls().length;
    codex.server.enqueue(
      toolCallReply({ id: 'call_g', name: 'update_goal', input: { status: 'complete' } }),
      textReply('The goal is reached.'),
    );
    const { goal } = await codex.t.call('goal.arm', {
      sessionId,
      objective: 'Count the herons',
      tokenBudget: null,
      maxIterations: 3,
    });
    const done = await waitFor(
      async () => {
        const current = (await codex.t.call('goal.get', { sessionId })).goal;
        return current?.status === 'complete' ? current : null;
      },
      { message: 'the goal to complete', timeoutMs: 20_000 },
    );
    expect(done.goalId).toBe(goal.goalId);
    expect(JSON.stringify((await codex.server.waitForModelCall(base)).body)).toContain('Count the herons');
    const turnIds = [...new Set((await items(sessionId)).map((item) => item.turnId))];
    expect(turnIds).toHaveLength(1);
    const turn = await turnReaches(sessionId, turnIds[0] ?? '', ['completed']);
    expect(turn.origin).toBe('goal');
    expect(codex.server.modelCalls().length).toBe(base + 2); // no turn started unseen after the goal completed
  });

  it("a goal turn is Codex's own continuation turn: recorded as a Cairn goal turn that completes, the goal's tokens and time from its usage", async () => {
    const { sessionId } = await codexSession('full');
    const base = codex.server.modelCalls().length;
    codex.server.enqueue(
      streamReply({
        toolCalls: [
          {
            id: 'call_sleep',
            name: 'exec_command',
            argumentChunks: [JSON.stringify({ cmd: 'sleep 1.2; echo counted' })],
          },
        ],
        usage: { inputTokens: 4000, outputTokens: 100, cachedInputTokens: 3000 },
      }),
      toolCallReply({ id: 'call_g', name: 'update_goal', input: { status: 'complete' } }),
      textReply('The herons are counted.', 3, { inputTokens: 5000, outputTokens: 40, cachedInputTokens: 4000 }),
    );
    const { goal } = await codex.t.call('goal.arm', {
      sessionId,
      objective: 'Count the herons',
      tokenBudget: null,
      maxIterations: 3,
    });
    const done = await waitFor(
      async () => {
        const current = (await codex.t.call('goal.get', { sessionId })).goal;
        return current?.status === 'complete' && current.iterations === 1 ? current : null;
      },
      { message: 'the goal to complete with its turn counted', timeoutMs: 20_000 },
    );
    expect(done).toMatchObject({ goalId: goal.goalId, lastReason: 'Codex marked the goal complete.' });
    // Codex started the turn itself: its own goal prompt and trigger, no request from Cairn.
    const first = await codex.server.waitForModelCall(base);
    expect(lastUserText(first.body)).toMatch(/^<codex_internal_context source="goal">/);
    expect(JSON.parse(first.headers['x-codex-turn-metadata'] as string)).toMatchObject({ turn_trigger: 'goal' });
    expect(JSON.stringify(first.body)).toContain('Count the herons');
    // One Cairn goal turn holds it all: the command, the final text; completed.
    const transcript = await items(sessionId);
    const turnIds = [...new Set(transcript.map((item) => item.turnId))];
    expect(turnIds).toHaveLength(1);
    const turn = await turnReaches(sessionId, turnIds[0] ?? '', ['completed']);
    expect(turn.origin).toBe('goal');
    const result = transcript.find((item) => item.kind === 'tool_result');
    expect(result?.data).toMatchObject({ toolName: 'run_shell', output: { exitCode: 0, status: 'completed' } });
    expect(JSON.stringify(result?.data)).toContain('counted');
    expect(transcript.at(-1)?.text).toBe('The herons are counted.');
    // The goal counts the turn's tokens (as usage.summary has them) and the time it ran.
    const usage = await codex.t.call('usage.summary', { by: 'session', sessionId });
    expect(done.tokensUsed).toBe(usage.totals.inputTokens + usage.totals.outputTokens);
    expect(done.tokensUsed).toBe(4000 + 100 + 10 + 5 + 5000 + 40);
    expect(done.timeUsedSeconds).toBeGreaterThanOrEqual(1);
    // The goal was paused as soon as the turn started: Codex chained no turn of its own after it.
    expect(codex.server.modelCalls().length).toBe(base + 3);
  });

  it('clearing the Cairn goal clears the Codex thread goal: get_goal then finds none', async () => {
    const { sessionId } = await codexSession('full');
    codex.server.enqueue(textReply('Still counting.'));
    const { goal } = await codex.t.call('goal.arm', {
      sessionId,
      objective: 'Count the herons',
      tokenBudget: null,
      maxIterations: 1,
    });
    const limited = await waitFor(
      async () => {
        const current = (await codex.t.call('goal.get', { sessionId })).goal;
        return current?.status === 'iterationLimited' ? current : null;
      },
      { message: 'the goal to reach its turn cap', timeoutMs: 20_000 },
    );
    await codex.t.call('goal.control', {
      sessionId,
      goalId: goal.goalId,
      expectedRevision: limited.revision,
      action: 'clear',
    });
    codex.server.enqueue(
      toolCallReply({ id: 'call_get', name: 'get_goal', input: {} }),
      textReply('There is no goal.'),
    );
    await codex.t.call('turn.start', { sessionId, turnId: 'after-clear', text: 'Is there a goal?' });
    expect((await turnReaches(sessionId, 'after-clear', ['completed', 'failed'])).status).toBe('completed');
    // Codex's continuation turn left its goal objective in the thread's history as a tool output
    // ("goal_objective"); get_goal's own result is the one with its call id.
    const answer = codex.server.toolResultFor('call_get')?.content ?? '';
    expect(JSON.parse(answer)).toMatchObject({ goal: null }); // before the clear it was the paused "Count the herons"
    expect((await codex.t.call('goal.get', { sessionId })).goal).toBeNull();
  });
});

describe('Codex delegations', { timeout: 60_000 }, () => {
  it('a WorkHub delegation asks Codex for a structured answer and stores it validated; an invalid one is recorded as invalid', async () => {
    const { connectionId } = await codexSession();
    const { session } = await codex.t.call('session.create', { title: 'Quarterly report', connectionId });
    const base = codex.server.modelCalls().length;
    codex.server.enqueue(textReply('{"outcome":"done","summary":"The chart is in."}', 3));
    const routed = await codex.t.call('workhub.route', {
      requestId: 'req-1',
      text: 'Add the revenue chart to the quarterly report',
    });
    await codex.t.call('workhub.act', {
      actionId: 'act-1',
      proposal: routed.proposal,
      candidateSetId: routed.candidateSetId,
    });
    await turnReaches(session.sessionId, 'delegation-act-1', ['completed']);
    expect(JSON.stringify((await codex.server.waitForModelCall(base)).body)).toContain('needs_input'); // the output schema reached the model
    const done = await codex.t.call('codex.turnResults', { sessionId: session.sessionId, turnId: 'delegation-act-1' });
    expect(done.results[0]?.structured).toEqual({
      valid: true,
      value: { outcome: 'done', summary: 'The chart is in.' },
    });

    codex.server.enqueue(textReply('I think it is done, probably.'));
    const again = await codex.t.call('workhub.route', {
      requestId: 'req-2',
      text: 'Check the quarterly report once more',
    });
    await codex.t.call('workhub.act', {
      actionId: 'act-2',
      proposal: again.proposal,
      candidateSetId: again.candidateSetId,
    });
    await turnReaches(session.sessionId, 'delegation-act-2', ['completed']);
    const invalid = await codex.t.call('codex.turnResults', {
      sessionId: session.sessionId,
      turnId: 'delegation-act-2',
    });
    expect(invalid.results[0]?.structured).toMatchObject({ valid: false, problem: 'The final message is not JSON.' });
  });
});
