import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { client, ndJsonStream } from '@agentclientprotocol/sdk';
import { testAgentCommand } from '../src-main/testing/acp-test-agent-launch';

/**
 * The ACP test agent's own time per turn, with no Cairn around it: the agent driven directly over its
 * stdio with the SDK's client side, `session/prompt` sent → first `agent_message_chunk` received. This
 * is the part of an ACP session's turn that Cairn cannot shorten; the bench subtracts it to show what
 * Cairn itself adds.
 */
export async function acpAloneTimes(turns: number): Promise<number[]> {
  const state = mkdtempSync(join(tmpdir(), 'cairn-bench-acp-alone-'));
  const agent = testAgentCommand(state);
  const child = spawn(agent.command, agent.args, {
    cwd: state,
    env: { ...process.env, ...agent.env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let firstChunk: (() => void) | null = null;
  const connection = client({ name: 'cairn-bench' })
    .onNotification('session/update', ({ params }) => {
      if (params.update.sessionUpdate === 'agent_message_chunk') firstChunk?.();
    })
    .connect(
      ndJsonStream(
        Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
        Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
      ),
    );
  const times: number[] = [];
  try {
    await connection.agent.request('initialize', {
      protocolVersion: 1,
      clientCapabilities: {},
      clientInfo: { name: 'cairn-bench', version: '0' },
    });
    const { sessionId } = await connection.agent.request('session/new', { cwd: state, mcpServers: [] });
    for (let turn = 0; turn < turns; turn += 1) {
      const seen = new Promise<number>((resolve) => (firstChunk = () => resolve(performance.now())));
      const started = performance.now();
      const answered = connection.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: `text alone-${turn} is the reply.` }],
      });
      times.push((await seen) - started);
      firstChunk = null;
      await answered;
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null)));
    rmSync(state, { recursive: true, force: true });
  }
  return times;
}
