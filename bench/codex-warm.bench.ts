import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OperationInput, OperationName, OperationResult } from '../src-shared/operations';
import { createHost, type Host } from '../src-main/host/create-host';
import { silentLogger } from '../src-main/runtime/ports/ports';
import { appServerPids } from '../src-main/testing/codex-processes';
import { startOpenAIResponsesServer, textReply, type ProviderTestServer } from '../src-main/testing/provider-servers';
import { waitFor } from '../src-main/testing/wait-for';
import type { BenchResult } from './bench-result';

const SESSIONS = 10;
/** The default cap (`--codex-max-warm`), so the capped figure is what a person gets. */
const CAP = 4;

/**
 * Memory of idle Codex sessions: the summed resident set (VmRSS in /proc/<pid>/status) of the
 * `codex app-server` processes left warm after one turn in each of N sessions, with no cap below N
 * (every one stays warm) and with `maxWarm` (the least recently used are stopped). Real app-servers,
 * a local fake Responses server. `npm run bench codex-warm`.
 */
export async function benchCodexWarm(): Promise<BenchResult[]> {
  const server = await startOpenAIResponsesServer();
  try {
    const uncapped = await idleRss(server, SESSIONS);
    const capped = await idleRss(server, CAP);
    return [
      {
        name: `codex: app-servers warm after ${SESSIONS} idle sessions, no cap`,
        value: uncapped.count,
        unit: 'processes',
      },
      { name: `codex: their summed RSS, no cap`, value: uncapped.rssKb / 1024, unit: 'MB' },
      {
        name: `codex: app-servers warm after ${SESSIONS} idle sessions, maxWarm ${CAP}`,
        value: capped.count,
        unit: 'processes',
      },
      {
        name: `codex: their summed RSS, maxWarm ${CAP}`,
        value: capped.rssKb / 1024,
        unit: 'MB',
        ratio: capped.rssKb / uncapped.rssKb,
      },
      {
        name: 'codex: RSS of one idle app-server (mean)',
        value: uncapped.rssKb / Math.max(uncapped.count, 1) / 1024,
        unit: 'MB',
      },
    ];
  } finally {
    await server.close();
  }
}

async function idleRss(server: ProviderTestServer, maxWarm: number): Promise<{ count: number; rssKb: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cairn-bench-codex-warm-'));
  const host = await createHost({ dataDir, logger: silentLogger, modelTitles: false, codex: { retries: 0, maxWarm } });
  try {
    const { connection } = await call(host, 'connection.create', {
      name: 'Codex',
      providerType: 'codex',
      baseUrl: server.baseUrl,
    });
    for (let index = 0; index < SESSIONS; index += 1) {
      const workspace = mkdtempSync(join(tmpdir(), 'cairn-bench-codex-work-'));
      const { session } = await call(host, 'session.create', {
        connectionId: connection.connectionId,
        permissionMode: 'full',
        workspacePath: workspace,
      });
      server.enqueue(textReply(`Answer ${index}.`));
      await call(host, 'turn.start', { sessionId: session.sessionId, turnId: 't1', text: `Question ${index}` });
      await waitFor(
        async () =>
          (await call(host, 'turn.query', { sessionId: session.sessionId, turnId: 't1' })).turn.status === 'completed',
        {
          timeoutMs: 60_000,
          message: `session ${index}'s turn`,
        },
      );
    }
    const expected = Math.min(maxWarm, SESSIONS);
    await waitFor(() => appServerPids(dataDir).length === expected, {
      timeoutMs: 30_000,
      message: `${expected} warm app-servers`,
    });
    const pids = appServerPids(dataDir);
    return { count: pids.length, rssKb: pids.reduce((sum, pid) => sum + rssKbOf(pid), 0) };
  } finally {
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function call<N extends OperationName>(host: Host, op: N, input: OperationInput<N>): Promise<OperationResult<N>> {
  const outcome = await host.invoke(op, input);
  if (!outcome.ok) throw new Error(`${op} failed: ${outcome.error.message}`);
  return outcome.result;
}

/** VmRSS of a process, in kB (0 when it is gone). */
function rssKbOf(pid: number): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((entry) => entry.startsWith('VmRSS:'));
    return Number(line?.match(/\d+/)?.[0] ?? 0);
  } catch {
    return 0;
  }
}
