import { dirname, join, resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ndJsonStream } from '@agentclientprotocol/sdk';
import { defaultDataDir } from '../host-client/default-data-dir';
import { ensureLocalHost } from '../host-client/ensure-local-host';
import { cairnAgent } from './cairn-acp-agent';

/** `cairn acp` (bin/cairn.mjs runs this, built as out/main/acp.js): Cairn's agent for an editor, on stdio. */

const USAGE = `Usage: cairn acp [--data-dir DIR]
  Speaks the Agent Client Protocol on stdin/stdout, for an editor (Zed, JetBrains, Neovim, acpx).
  --data-dir  the data directory whose host to use (env CAIRN_DATA_DIR; default: the same per-user
              folder as npm start); a headless host is started for it when none runs`;

const VERSION = '0.1.0';

/** Everything but JSON-RPC goes to stderr: an editor reads stdout as the protocol. */
function log(line: string) {
  process.stderr.write(`cairn acp: ${line}\n`);
}

export async function runAcpAgent(args: readonly string[]): Promise<void> {
  // A stray console.log anywhere below must not corrupt the protocol.
  console.log = console.error;
  console.info = console.error;
  let values;
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: { 'data-dir': { type: 'string' }, help: { type: 'boolean' } },
      strict: true,
    }));
  } catch (error) {
    log(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    process.exit(2);
  }
  if (values.help === true) {
    process.stderr.write(`${USAGE}\n`);
    process.exit(0);
  }
  const dataDir = resolve(values['data-dir'] ?? process.env.CAIRN_DATA_DIR ?? defaultDataDir());
  const here = dirname(fileURLToPath(import.meta.url));
  let host;
  try {
    host = await ensureLocalHost({ dataDir, serveEntry: join(here, 'serve.js'), log, env: process.env });
  } catch (error) {
    log(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
  log(`using the Cairn host of ${host.welcome.dataDir}`);

  const input = Readable.toWeb(process.stdin) as unknown as ReadableStream<Uint8Array>;
  const output = Writable.toWeb(process.stdout) as WritableStream<Uint8Array>;
  const connection = cairnAgent({ host, log, version: VERSION }).connect(ndJsonStream(output, input));
  // The editor closed stdin (or the host went away): nothing is left to do, so exit at once.
  process.stdin.once('end', () => process.exit(0));
  process.stdin.once('close', () => process.exit(0));
  void connection.closed.then(() => process.exit(0));
  void host.closed.then(() => {
    log('the Cairn host closed the connection');
    process.exit(1);
  });
}
