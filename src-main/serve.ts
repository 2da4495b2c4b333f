import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createHost } from './host/create-host';
import { startWebSocketTransport } from './host/transports/websocket-transport';
import { consoleLogger } from './runtime/ports';
import { DataDirLockedError } from './storage/data-dir-lock';

/** The headless host: the same Host as the desktop app, over WebSocket on 127.0.0.1. */

const USAGE = `Usage: npm run serve -- [--data-dir DIR] [--port N] [--token T]
  --data-dir  where Cairn keeps its database (env CAIRN_DATA_DIR; default: a per-user folder)
  --port      port on 127.0.0.1 (env CAIRN_PORT; default: a free port)
  --token     the access token clients must present (env CAIRN_TOKEN; default: random)`;

function defaultDataDir(): string {
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Cairn');
  if (process.platform === 'win32') return join(process.env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Cairn');
  return join(process.env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'cairn');
}

function parseOptions() {
  const { values } = parseArgs({
    options: {
      'data-dir': { type: 'string' },
      port: { type: 'string' },
      token: { type: 'string' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help === true) {
    console.log(USAGE);
    process.exit(0);
  }
  const portText = values.port ?? process.env.CAIRN_PORT ?? '0';
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0–65535, not "${portText}"`);
  const token = values.token ?? process.env.CAIRN_TOKEN ?? randomBytes(24).toString('base64url');
  if (token.length < 8) throw new Error('--token must be at least 8 characters');
  return {
    dataDir: resolve(values['data-dir'] ?? process.env.CAIRN_DATA_DIR ?? defaultDataDir()),
    port,
    token,
  };
}

async function main() {
  let options;
  try {
    options = parseOptions();
  } catch (error) {
    console.error(`cairn: ${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    process.exit(2);
  }
  const logger = consoleLogger();
  const host = await createHost({ dataDir: options.dataDir, logger });
  const rendererDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'out', 'renderer');
  const transport = await startWebSocketTransport({
    host,
    token: options.token,
    port: options.port,
    logger,
    staticDir: existsSync(join(rendererDir, 'index.html')) ? rendererDir : null,
    extraOrigins: process.env.CAIRN_DEV_ORIGIN === undefined ? [] : [process.env.CAIRN_DEV_ORIGIN],
  });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info(`Received ${signal}; shutting down`);
    host.drain(); // nothing new starts while the transport closes
    await transport.close();
    await host.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  console.log(`Cairn host ready (data: ${options.dataDir})`);
  console.log(`Open ${transport.url}`);
}

main().catch((error: unknown) => {
  if (error instanceof DataDirLockedError) console.error(`cairn: ${error.message}`);
  else console.error('cairn: the host failed to start:', error);
  process.exit(1);
});
