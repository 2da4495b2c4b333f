import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Logger } from '../../runtime/ports/ports';
import { silentLogger } from '../../runtime/ports/ports';
import { startTestHost, useTempDirs } from '../../testing/host-fixture';
import { rememberedPort } from './remembered-port';
import { startWebSocketTransport } from './websocket-transport';

const TOKEN = 'port-test-token-0123456789';
const dir = useTempDirs();
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { ...silentLogger, warnings, warn: (message) => warnings.push(message) };
}

/** A host and its loopback listener on `dataDir`, with the port chosen as serve does by default. */
async function start(dataDir: string, logger: Logger = silentLogger) {
  const t = await startTestHost({ dataDir });
  const transport = await startWebSocketTransport({
    host: t.host,
    token: TOKEN,
    port: 'remembered',
    portMemory: { dataDir, name: 'loopback' },
    logger,
    staticDir: null,
  });
  const stop = async () => {
    await transport.close();
    await t.close();
  };
  return { transport, stop };
}

function occupy(port: number): Promise<Server> {
  const server = createServer();
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

describe('the port kept across restarts', () => {
  it('two starts of the host on one data directory listen on the same port', async () => {
    const dataDir = dir();
    const first = await start(dataDir);
    const port = first.transport.port;
    expect(rememberedPort(dataDir, 'loopback')).toBe(port);
    await first.stop();
    const second = await start(dataDir);
    cleanups.push(second.stop);
    expect(second.transport.port).toBe(port);
    expect(second.transport.url).toBe(`http://127.0.0.1:${port}/#token=${TOKEN}`);
  });

  it('takes a free port when the kept one is taken, says so in the log, and keeps the new one', async () => {
    const dataDir = dir();
    const first = await start(dataDir);
    const port = first.transport.port;
    await first.stop();
    const squatter = await occupy(port);
    cleanups.push(() => new Promise((resolve) => squatter.close(() => resolve())));
    const logger = recordingLogger();
    const second = await start(dataDir, logger);
    cleanups.push(second.stop);
    expect(second.transport.port).not.toBe(port);
    expect(logger.warnings).toEqual([
      `Port ${port} (used last time) is taken by another program; listening on a free port instead`,
    ]);
    expect(rememberedPort(dataDir, 'loopback')).toBe(second.transport.port);
  });
});
