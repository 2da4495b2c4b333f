import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:net';
import { join } from 'node:path';
import type { Logger } from '../../runtime/ports/ports';

/**
 * The ports the host's listeners used last, kept in the data directory so an open tab, a paired
 * phone and an editor's settings still reach the host after a restart. A port kept here is tried
 * first; when something else holds it now, the listener takes a free one and the log says so.
 */

export const LISTEN_PORTS_FILE = 'listen-ports.json';

/** The loopback listener (127.0.0.1) and the listener other devices reach (`--listen`). */
export type ListenerName = 'loopback' | 'reach';

/** A port to listen on: a number (0 = any free port), or the one used last time when still free. */
export type PortChoice = number | 'remembered';

export function rememberedPort(dataDir: string, name: ListenerName): number | null {
  const port = readPorts(dataDir)[name];
  return typeof port === 'number' && Number.isInteger(port) && port > 0 && port <= 65535 ? port : null;
}

export function rememberPort(dataDir: string, name: ListenerName, port: number): void {
  const path = join(dataDir, LISTEN_PORTS_FILE);
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify({ ...readPorts(dataDir), [name]: port })}\n`);
  renameSync(temp, path);
}

function readPorts(dataDir: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(join(dataDir, LISTEN_PORTS_FILE), 'utf8'));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    // No file yet, or one that is not ours to read: start as on a first run.
    return {};
  }
}

export interface ListenOptions {
  readonly address: string;
  readonly port: PortChoice;
  /** Where the port is remembered; null remembers nothing. */
  readonly memory: { readonly dataDir: string; readonly name: ListenerName } | null;
  readonly logger: Logger;
}

/** Listens on the chosen port (the remembered one when still free, else a free one) and returns the port. */
export async function listenRemembering(server: Server, options: ListenOptions): Promise<number> {
  const { memory } = options;
  const kept = options.port === 'remembered' && memory !== null ? rememberedPort(memory.dataDir, memory.name) : null;
  let port = options.port === 'remembered' ? (kept ?? 0) : options.port;
  try {
    await listen(server, port, options.address);
  } catch (error) {
    if (kept === null || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    options.logger.warn(`Port ${kept} (used last time) is taken by another program; listening on a free port instead`, {
      address: options.address,
    });
    await listen(server, 0, options.address);
  }
  const address = server.address();
  port = typeof address === 'object' && address !== null ? address.port : port;
  if (memory !== null) {
    try {
      rememberPort(memory.dataDir, memory.name, port);
    } catch (error) {
      options.logger.warn('Could not remember the port for the next start', { error: String(error) });
    }
  }
  return port;
}

function listen(server: Server, port: number, address: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, address, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
