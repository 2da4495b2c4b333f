import { describe, expect, it } from 'vitest';
import { useCodexSessions } from '../../../testing/codex-sessions-fixture';
import { hangReply, responsesErrors, streamReply, textReply } from '../../../testing/provider-servers';
import { processGone } from '../../shell/process-group';
import { waitFor } from '../../../testing/wait-for';
import { appServerPid } from '../../../testing/codex-processes';

/** A Codex session when things go wrong: the model server failing, the app-server killed or deaf to an interrupt. */

const codex = useCodexSessions();
const { codexSession, turnReaches } = codex;

describe('Codex failures', { timeout: 60_000 }, () => {
  for (const [name, reply] of [
    ['HTTP 500', responsesErrors.serverError()],
    ['a cut stream', streamReply({ text: ['Half an ans'], ending: 'drop' })],
    [
      'response.failed',
      streamReply({ text: [], ending: { error: { code: 'server_error', message: 'The model broke down' } } }),
    ],
  ] as const) {
    it(`${name} fails the turn with the reason; the session stays usable`, async () => {
      const { sessionId } = await codexSession();
      codex.server.enqueue(reply);
      await codex.t.call('turn.start', { sessionId, turnId: 't1', text: 'Try' });
      const failed = await turnReaches(sessionId, 't1', ['completed', 'failed']);
      expect(failed.status).toBe('failed');
      const run = (await codex.t.call('turn.query', { sessionId, turnId: 't1' })).turn.latestRun;
      expect(run).toMatchObject({ terminalReason: 'provider_error' });
      expect(run?.errorMessage).toMatch(/^Codex: /);
      if (name === 'HTTP 500') {
        // The real status and attempts beside Codex's own "high demand" text (retries are 0 here: one attempt).
        expect(run?.errorMessage).toMatch(
          /^Codex: The model server answered 500 \(1 attempt made\)\. Codex says: We.re currently experiencing high demand/,
        );
        expect(
          (await codex.t.call('codex.turnResults', { sessionId, turnId: 't1' })).results[0]?.errorMessage,
        ).toContain('The model server answered 500');
      }
      codex.server.enqueue(textReply('Fine now.'));
      await codex.t.call('turn.start', { sessionId, turnId: 't2', text: 'Again' });
      expect((await turnReaches(sessionId, 't2', ['completed', 'failed'])).status).toBe('completed');
    });
  }

  it('codex killed mid-turn: agent_process_exited with its stderr tail; the next turn resumes the thread in a new app-server', async () => {
    const { sessionId } = await codexSession();
    const base = codex.server.modelCalls().length;
    codex.server.enqueue(hangReply(['Partial']));
    await codex.t.call('turn.start', { sessionId, turnId: 't1', text: 'Remember the word kestrel' });
    await codex.server.waitForModelCall(base);
    const pid = appServerPid(codex.t.dataDir);
    if (pid === null) throw new Error('no app-server found for this host');
    process.kill(pid, 'SIGKILL');
    const failed = await turnReaches(sessionId, 't1', ['failed', 'completed']);
    expect(failed.status).toBe('failed');
    const run = (await codex.t.call('turn.query', { sessionId, turnId: 't1' })).turn.latestRun;
    expect(run).toMatchObject({ terminalReason: 'agent_process_exited' });
    expect(run?.errorMessage).toContain('SIGKILL');
    codex.server.enqueue(textReply('Kestrel.'));
    await codex.t.call('turn.start', { sessionId, turnId: 't2', text: 'Which word?' });
    expect((await turnReaches(sessionId, 't2', ['completed', 'failed'])).status).toBe('completed');
    expect(JSON.stringify((await codex.server.waitForModelCall(base + 1)).body)).toContain('kestrel');
    expect(appServerPid(codex.t.dataDir)).not.toBe(pid);
  });

  it('Stop when Codex ignores the interrupt: cancelled at once, the process group killed within the bound', async () => {
    const { sessionId } = await codexSession();
    const base = codex.server.modelCalls().length;
    codex.server.enqueue(hangReply(['Slow']));
    await codex.t.call('turn.start', { sessionId, turnId: 't1', text: 'Go slowly' });
    await codex.server.waitForModelCall(base);
    const pid = appServerPid(codex.t.dataDir);
    if (pid === null) throw new Error('no app-server found for this host');
    process.kill(pid, 'SIGSTOP'); // a Codex that answers nothing
    const started = Date.now();
    await codex.t.call('turn.stop', { sessionId, turnId: 't1' });
    expect((await codex.t.call('turn.query', { sessionId, turnId: 't1' })).turn.status).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(1000);
    await waitFor(() => processGone(pid), { message: 'the stopped app-server killed', timeoutMs: 10_000 });
    expect(Date.now() - started).toBeLessThan(6000);
    codex.server.enqueue(textReply('Back.'));
    await codex.t.call('turn.start', { sessionId, turnId: 't2', text: 'Again' });
    expect((await turnReaches(sessionId, 't2', ['completed', 'failed'])).status).toBe('completed');
  });
});
