import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OFFLOAD_DIR } from '../runtime/context/offload';
import type { Logger } from '../runtime/ports/ports';
import { startTestHost, tempDataDir, type TestHost } from '../testing/host-fixture';
import {
  startOpenAIChatServer,
  TEST_API_KEY,
  textReply,
  toolCallReply,
  type ProviderTestServer,
} from '../testing/provider-servers';
import { tempWorkspace } from '../testing/workspace-fixture';

/** Large tool output when the context-offload folder cannot be made (a file stands in its place). */

let t: TestHost;
let server: ProviderTestServer;
let space: ReturnType<typeof tempWorkspace>;
let cleanupData: () => void;
const warnings: Array<{ message: string; details?: Record<string, unknown> }> = [];
const logger: Logger = {
  info() {},
  error() {},
  warn: (message, details) => warnings.push({ message, ...(details === undefined ? {} : { details }) }),
};

beforeEach(async () => {
  warnings.length = 0;
  const data = tempDataDir();
  cleanupData = data.cleanup;
  writeFileSync(join(data.dir, OFFLOAD_DIR), 'not a folder');
  space = tempWorkspace();
  server = await startOpenAIChatServer({ models: ['local-model'] });
  t = await startTestHost({ dataDir: data.dir, logger });
});
afterEach(async () => {
  await t.close();
  await server.close();
  space.cleanup();
  cleanupData();
});

describe('an unusable context-offload store', () => {
  it('is warned about at start, and a turn with a large tool output completes with the output cut and the reason said', async () => {
    expect(warnings.find((warning) => warning.message.includes('context-offload store'))?.details?.reason).toMatch(
      /context-offload .*a file is in the way.*Move away/,
    );

    const big = Array.from({ length: 6_000 }, (_, i) => `line ${i}: some output text`).join('\n');
    space.write('big.txt', big);
    const { connection } = await t.call('connection.create', {
      name: 'Local',
      providerType: 'openai_compatible',
      baseUrl: server.baseUrl,
      apiKey: TEST_API_KEY,
    });
    const { session } = await t.call('session.create', {
      connectionId: connection.connectionId,
      model: 'local-model',
      workspacePath: space.root,
      permissionMode: 'explore',
    });
    server.enqueue(
      toolCallReply({ id: 'call_1', name: 'read_file', input: { path: 'big.txt' } }, 2),
      textReply('Read it.'),
    );
    await t.call('turn.start', { sessionId: session.sessionId, turnId: 't1', text: 'Read big.txt' });
    const turn = await t.waitForTurn(session.sessionId, 't1', ['completed', 'failed']);
    expect(turn.latestRun.errorCode ?? null).toBeNull();
    expect(turn.status).toBe('completed');

    const second = JSON.stringify((await server.waitForModelCall(1)).body);
    expect(second).toContain('only its start and end are shown, and the rest cannot be read with read_output');
    expect(second).toContain('line 0: some output text');
    expect(second).not.toContain('line 3000: some output text');
    expect(second).toContain('Move away whatever is at that path');
  });
});
