import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findCodexBinary } from '../src-main/runtime/connections/codex-binary';
import { appServerLaunch } from '../src-main/runtime/agent-backends/codex/codex-config';
import { threadResultSchema } from '../src-main/runtime/agent-backends/codex/codex-protocol';
import { DEFAULT_BOUNDS, LiveAppServer } from '../src-main/runtime/agent-backends/codex/live-app-server';
import { textReply, type ProviderTestServer } from '../src-main/testing/provider-servers';

/**
 * Codex's own time per turn, with no Cairn around it: the real app-server driven directly over its
 * JSON-RPC, `turn/start` sent → first `item/agentMessage/delta` read, on the same fake model. This
 * is the part of a Codex session's turn that Cairn cannot shorten; the bench subtracts it to show
 * what Cairn itself adds.
 */
export async function codexAloneTimes(server: ProviderTestServer, turns: number): Promise<number[]> {
  const binary = findCodexBinary(null);
  if (binary === null) throw new Error('No codex binary: install the @openai/codex dependency.');
  const base = mkdtempSync(join(tmpdir(), 'cairn-bench-codex-alone-'));
  const [codexHome, tmpDir, work] = ['home', 'tmp', 'work'].map((name) => join(base, name)) as [string, string, string];
  for (const folder of [codexHome, tmpDir, work]) mkdirSync(folder, { recursive: true });
  const launch = appServerLaunch(
    { binary: binary.path, model: 'gpt-5.5', baseUrl: server.baseUrl, apiKey: null, codexHome, tmpDir },
    work,
  );
  const live = new LiveAppServer('bench', launch, 'bench');
  const times: number[] = [];
  try {
    await live.initialize('bench', DEFAULT_BOUNDS);
    const thread = threadResultSchema.parse(
      await live.rpc.request(
        'thread/start',
        { model: 'gpt-5.5', cwd: work, approvalPolicy: 'never', sandbox: 'workspace-write' },
        DEFAULT_BOUNDS.requestMs,
      ),
    );
    for (let turn = 0; turn < turns; turn += 1) {
      server.enqueue(textReply(`alone-${turn} is the reply.`, 1));
      live.drain();
      const started = performance.now();
      await live.rpc.request(
        'turn/start',
        { threadId: thread.thread.id, input: [{ type: 'text', text: `Say alone-${turn}`, text_elements: [] }] },
        DEFAULT_BOUNDS.requestMs,
      );
      const deadline = AbortSignal.timeout(30_000);
      let firstDelta = Number.NaN;
      for (;;) {
        const message = await live.next(deadline);
        if (message === null || message.kind !== 'notification')
          throw new Error('Codex ended before its turn completed');
        if (message.value.method === 'item/agentMessage/delta' && Number.isNaN(firstDelta))
          firstDelta = performance.now() - started;
        if (message.value.method === 'turn/completed') break;
      }
      times.push(firstDelta);
    }
  } finally {
    await live.process.terminate(DEFAULT_BOUNDS.killGraceMs, DEFAULT_BOUNDS.killConfirmMs);
    rmSync(base, { recursive: true, force: true });
  }
  return times;
}
