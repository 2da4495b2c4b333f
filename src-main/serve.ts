import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { codexLimitsFrom } from './host/codex-limits';
import { createHost } from './host/create-host';
import type { SandboxSetting } from './runtime/sandbox/sandbox-availability';
import { HostTokenError, storedHostToken } from './host/transports/host-token';
import type { PortChoice } from './host/transports/remembered-port';
import { startLocalSocketListener } from './host/transports/local-socket-listener';
import { describeReach, openHostReach } from './host/transports/host-reach';
import { startWebSocketTransport } from './host/transports/websocket-transport';
import { consoleLogger } from './runtime/ports/ports';
import { parsePassThrough } from './runtime/shell/child-environment';
import { DataDirError, DataDirLockedError } from './storage/data-dir-errors';
import { defaultDataDir } from './host-client/default-data-dir';
import { runningHostAddress } from './host-client/running-host';

/** The headless host: the same Host as the desktop app, over WebSocket on 127.0.0.1. */

const USAGE = `Usage: npm run serve -- [--data-dir DIR] [--port N] [--token-file FILE] [--new-token] [--salvage] [--listen ADDRESS [--cert FILE --key FILE]]
  --data-dir    where Cairn keeps its database (env CAIRN_DATA_DIR; default: a per-user folder)
  --port        port on 127.0.0.1 (env CAIRN_PORT; default: the port used last time when it is
                still free, else a free one; 0 picks a free one every time)
  --token-file  a file holding the access token clients must present
                (or env CAIRN_TOKEN; default: the token kept in the data directory's host-token
                file, made on first start, so open tabs reconnect after a restart)
  --new-token   replace the kept token with a new one (tabs opened before must use the new address)
  --listen ADDRESS  also let other devices reach this Cairn on ADDRESS (an address of this machine),
                over HTTPS only, with a certificate Cairn makes and keeps in the data directory
                (see docs/remote.md); devices pair with the device.* operations
  --cert FILE --key FILE  serve --listen with this certificate and key instead (e.g. from tailscale cert)
  --salvage     if the database is damaged, move it aside (it is kept) and start with a fresh one
                holding every session and transcript that can still be read
  --codex-idle-minutes N  stop a Codex app-server idle this long (env CAIRN_CODEX_IDLE_MINUTES; default 10)
  --codex-max-warm N      keep at most N Codex app-servers warm (env CAIRN_CODEX_MAX_WARM; default 4)
  --pass-env NAMES        variables agents' commands still get although their names look like secrets
                          (KEY, SECRET, TOKEN, PASSWORD), comma-separated (env CAIRN_PASS_ENV)
  --sandbox detect|off    the sandbox for agents' commands: used when bubblewrap works here (detect,
                          the default), or never (off; Auto mode is then refused) (env CAIRN_SANDBOX)
  --token T     also accepted, but every user of this machine can read it in the process list`;

/**
 * The built renderer: beside this file's folder when it runs built (out/main/serve.js → out/renderer),
 * or the project's out/renderer when it runs from source (src-main/serve.ts).
 */
function builtRendererDir(here: string): string {
  const built = resolve(here, '..', 'renderer');
  return existsSync(join(built, 'index.html')) ? built : resolve(here, '..', 'out', 'renderer');
}

function parseOptions() {
  const { values } = parseArgs({
    options: {
      'data-dir': { type: 'string' },
      port: { type: 'string' },
      token: { type: 'string' },
      'token-file': { type: 'string' },
      'new-token': { type: 'boolean' },
      salvage: { type: 'boolean' },
      'codex-idle-minutes': { type: 'string' },
      'codex-max-warm': { type: 'string' },
      'pass-env': { type: 'string' },
      sandbox: { type: 'string' },
      listen: { type: 'string' },
      cert: { type: 'string' },
      key: { type: 'string' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help === true) {
    console.log(USAGE);
    process.exit(0);
  }
  const portText = values.port ?? process.env.CAIRN_PORT;
  const port: PortChoice = portText === undefined ? 'remembered' : Number(portText);
  if (port !== 'remembered' && (!Number.isInteger(port) || port < 0 || port > 65535))
    throw new Error(`--port must be 0–65535, not "${portText}"`);
  const tokenFile = values['token-file'];
  if (tokenFile !== undefined && values.token !== undefined)
    throw new Error('Give either --token-file or --token, not both');
  const given = (tokenFile === undefined ? undefined : readToken(tokenFile)) ?? values.token ?? process.env.CAIRN_TOKEN;
  // Read once, then gone from this process's environment: nothing started later can inherit it.
  delete process.env.CAIRN_TOKEN;
  if (given !== undefined && given.length < 8) throw new Error('The access token must be at least 8 characters');
  const newToken = values['new-token'] === true;
  if (given !== undefined && newToken)
    throw new Error(
      '--new-token replaces the token kept in the data directory; it cannot be combined with --token, --token-file or CAIRN_TOKEN',
    );
  if (values.token !== undefined) {
    console.warn(
      'cairn: --token is visible to every user of this machine in the process list; prefer CAIRN_TOKEN or --token-file.',
    );
  }
  if ((values.cert === undefined) !== (values.key === undefined)) throw new Error('Give --cert and --key together');
  if (values.cert !== undefined && values.listen === undefined)
    throw new Error('--cert and --key go with --listen ADDRESS');
  const sandbox = values.sandbox ?? process.env.CAIRN_SANDBOX ?? 'detect';
  if (sandbox !== 'detect' && sandbox !== 'off') throw new Error(`--sandbox must be detect or off, not "${sandbox}"`);
  return {
    sandbox: sandbox as SandboxSetting,
    dataDir: resolve(values['data-dir'] ?? process.env.CAIRN_DATA_DIR ?? defaultDataDir()),
    port,
    /** The token given by --token-file, --token or CAIRN_TOKEN; without one, the data directory's kept token. */
    givenToken: given ?? null,
    newToken,
    salvage: values.salvage === true,
    codex: codexLimitsFrom(
      { idleMinutes: values['codex-idle-minutes'], maxWarm: values['codex-max-warm'] },
      process.env,
    ),
    passEnv: parsePassThrough(values['pass-env'] ?? process.env.CAIRN_PASS_ENV),
    listen:
      values.listen === undefined
        ? null
        : {
            address: values.listen,
            ...(values.cert === undefined ? {} : { certFile: resolve(values.cert) }),
            ...(values.key === undefined ? {} : { keyFile: resolve(values.key) }),
          },
  };
}

function readToken(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`Could not read the token file ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const token = text.trim();
  if (token.includes('\n')) throw new Error(`The token file ${file} must hold the token alone, on one line`);
  return token;
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
  // CAIRN_MODEL_TITLES=off keeps first-line titles (no title call to the model): for test harnesses that count model calls.
  // CAIRN_ACP_INSTALL_SOURCE: a folder (or http address) of packed agent tarballs to install ACP agents from instead of the npm registry (offline machines, tests).
  const installSource = process.env.CAIRN_ACP_INSTALL_SOURCE;
  // CAIRN_ACP_REGISTRY_URL: where the ACP agent registry is fetched from instead of its published address (tests, mirrors).
  const registryUrl = process.env.CAIRN_ACP_REGISTRY_URL;
  const here = dirname(fileURLToPath(import.meta.url));
  // bin/cairn.mjs, two folders up from out/main/serve.js and from src-main/serve.ts alike.
  const acpLauncher = resolve(here, '..', '..', 'bin', 'cairn.mjs');
  const host = await createHost({
    dataDir: options.dataDir,
    logger,
    salvage: options.salvage,
    modelTitles: process.env.CAIRN_MODEL_TITLES !== 'off',
    codex: options.codex,
    commandEnvPassThrough: options.passEnv,
    sandbox: options.sandbox,
    acpLauncher: existsSync(acpLauncher) ? acpLauncher : null,
    acp: {
      ...(installSource === undefined || installSource === '' ? {} : { installSource }),
      ...(registryUrl === undefined || registryUrl === '' ? {} : { registryUrl }),
    },
  });
  let token: string;
  if (options.givenToken !== null) {
    token = options.givenToken;
  } else {
    let stored;
    try {
      stored = storedHostToken(options.dataDir, { rotate: options.newToken });
    } catch (error) {
      await host.close();
      throw error;
    }
    token = stored.token;
    if (stored.source === 'rotated')
      console.log(`A new access token is in ${stored.path}; tabs opened before must use the address below.`);
  }
  const rendererDir = builtRendererDir(here);
  const staticDir = existsSync(join(rendererDir, 'index.html')) ? rendererDir : null;
  const transport = await startWebSocketTransport({
    host,
    token,
    port: options.port,
    portMemory: { dataDir: options.dataDir, name: 'loopback' },
    logger,
    staticDir,
    extraOrigins: process.env.CAIRN_DEV_ORIGIN === undefined ? [] : [process.env.CAIRN_DEV_ORIGIN],
  });

  const reach = await openHostReach({
    host,
    token,
    loopbackOrigin: transport.origin,
    dataDir: options.dataDir,
    staticDir,
    logger,
    commandLine: options.listen,
  });
  // Editors reach this host through `cairn acp`, over a 0600 socket in the data directory (docs/acp.md).
  const local = await startLocalSocketListener({ host, dataDir: options.dataDir, logger, pageUrl: transport.url });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info(`Received ${signal}; shutting down`);
    host.drain(); // nothing new starts while the transport closes
    await reach.close();
    await local.close();
    await transport.close();
    await host.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  console.log(`Cairn host ready (data: ${options.dataDir})`);
  console.log(`Open ${transport.url}`);
  const reached = describeReach(reach.status());
  if (reached?.ok === true) console.log(reached.text);
  else if (reached !== null) console.error(`cairn: ${reached.text}`);
}

main().catch(async (error: unknown) => {
  // The directory's host is already running (started by `cairn acp`, or earlier): use that one.
  const running = error instanceof DataDirLockedError ? await runningHostAddress(error.dataDir) : null;
  if (running !== null) {
    console.log(
      running.pageUrl === null
        ? `Cairn is already running for ${running.dataDir}, in the desktop app.`
        : `Cairn is already running for ${running.dataDir}; its page: ${running.pageUrl}`,
    );
    process.exit(0);
  }
  if (error instanceof DataDirError || error instanceof HostTokenError) {
    const next =
      error instanceof DataDirError && error.problem === 'damaged_database'
        ? '\nTo do that, start again with --salvage.'
        : '';
    console.error(`cairn: ${error.message}${next}`);
  } else {
    console.error('cairn: the host failed to start:', error);
  }
  process.exit(1);
});
