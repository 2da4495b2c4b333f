import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { Outcome } from '../../src-shared/errors';
import type { ChangeEvent } from '../../src-shared/events';
import type { OperationInput, OperationName, OperationResult } from '../../src-shared/operations';
import { createHost, type Host, type HostOptions } from '../host/create-host';
import { sequentialIds, silentLogger } from '../runtime/ports/ports';
import { waitFor } from './wait-for';
import { TEST_SHELL_OVERRIDE } from './codex-test-shells';
import { UNREACHABLE_REGISTRY } from './offline-registry';

export function tempDataDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-test-'));
  // A host killed with SIGKILL leaves its git children (checkpoints) writing for a moment: a removal
  // racing them meets a folder that is not empty yet, and tries again.
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 }) };
}

export interface TestHost {
  readonly host: Host;
  readonly dataDir: string;
  readonly events: ChangeEvent[];
  /** Invokes and asserts `ok`, returning the result. */
  call<N extends OperationName>(op: N, input: OperationInput<N>): Promise<OperationResult<N>>;
  /** Invokes and returns the raw outcome. */
  invoke<N extends OperationName>(op: N, input: OperationInput<N>): Promise<Outcome<OperationResult<N>>>;
  /** Waits until the turn's status is one of `statuses`. */
  waitForTurn(
    sessionId: string,
    turnId: string,
    statuses: readonly string[],
  ): Promise<OperationResult<'turn.query'>['turn']>;
  close(): Promise<void>;
}

/** A `dir()` that makes a temp directory removed after each test of the calling describe block. */
export function useTempDirs(): () => string {
  const cleanups: Array<() => void> = [];
  afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));
  return () => {
    const temp = tempDataDir();
    cleanups.push(temp.cleanup);
    return temp.dir;
  };
}

let reopenCount = 0;

/** A host on a fresh temp data directory with sequential ids and no log output. */
export async function startTestHost(options: Partial<HostOptions> & { dataDir?: string } = {}): Promise<TestHost> {
  const temp = options.dataDir === undefined ? tempDataDir() : null;
  const dataDir = options.dataDir ?? temp?.dir ?? '';
  // A host reopened on a used directory gets its own id prefix so its ids cannot collide with the first's.
  reopenCount += options.dataDir === undefined ? 0 : 1;
  const ids = sequentialIds(options.dataDir === undefined ? '' : `reopen${reopenCount}-`);
  // Model-written titles are a call of their own: off unless a test asks, so model-call counts stay the turns'.
  // Codex's shells wait a second at most on a pyenv lock a stopped command left (codex-test-shells.ts).
  const codex = { ...options.codex, config: [...(options.codex?.config ?? []), TEST_SHELL_OVERRIDE] };
  const host = await createHost({
    ids,
    logger: silentLogger,
    modelTitles: false,
    sandbox: 'off',
    ...options,
    codex,
    // Tests reach loopback only: the ACP registry's published address is never fetched.
    acp: { registryUrl: UNREACHABLE_REGISTRY, ...options.acp },
    dataDir,
  });
  const events: ChangeEvent[] = [];
  const unsubscribe = host.subscribe((event) => events.push(event));
  const testHost: TestHost = {
    host,
    dataDir,
    events,
    async call(op, input) {
      const outcome = await host.invoke(op, input);
      if (!outcome.ok) throw new Error(`${op} failed: ${outcome.error.code}: ${outcome.error.message}`);
      return outcome.result;
    },
    invoke: (op, input) => host.invoke(op, input),
    async waitForTurn(sessionId, turnId, statuses) {
      return waitFor(
        async () => {
          const outcome = await host.invoke('turn.query', { sessionId, turnId });
          if (!outcome.ok) {
            if (outcome.error.code === 'not_found') return null; // not started yet
            throw new Error(`turn.query failed: ${outcome.error.message}`);
          }
          return statuses.includes(outcome.result.turn.status) ? outcome.result.turn : null;
        },
        { message: `turn ${turnId} to reach ${statuses.join('/')}` },
      );
    },
    async close() {
      unsubscribe();
      await host.close();
      temp?.cleanup();
    },
  };
  return testHost;
}
