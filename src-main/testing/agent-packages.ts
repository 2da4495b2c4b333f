import { execFileSync } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Stand-ins for the ACP agents' npm packages, so installing them stays offline: a tiny package with
 * the agent's name, version and program, packed by the real `npm pack` into a folder Cairn can
 * install from (`installSource`), named as npm names tarballs.
 */
export function packFakeAgent(
  pkg: string,
  version: string,
  bin: string,
  manifest: { readonly dependencies?: Record<string, string>; readonly scripts?: Record<string, string> } = {},
): { folder: string; tarball: string } {
  const root = mkdtempSync(join(tmpdir(), 'cairn-agent-package-'));
  const source = join(root, 'package');
  const folder = join(root, 'tarballs');
  mkdirSync(source);
  mkdirSync(folder);
  writeFileSync(
    join(source, 'package.json'),
    JSON.stringify({ name: pkg, version, bin: { [bin]: 'agent.js' }, license: 'MIT', ...manifest }),
  );
  writeFileSync(join(source, 'agent.js'), '#!/usr/bin/env node\nconsole.error("a stand-in for the agent");\n');
  const file =
    execFileSync('npm', ['pack', source, '--pack-destination', folder, '--silent'], { encoding: 'utf8', cwd: root })
      .trim()
      .split('\n')
      .pop() ?? '';
  return { folder, tarball: join(folder, file) };
}

/**
 * A loopback server of package tarballs: serves the folder's files. While `hold` is on, requests wait
 * (their headers and a first byte sent) until `release()` serves them, or until they are dropped.
 */
export class TarballServer {
  private readonly server: Server;
  readonly requests: string[] = [];
  private readonly held = new Map<IncomingMessage, () => void>();
  hold = false;

  private constructor(private readonly folder: string) {
    this.server = createServer((request, response) => {
      this.requests.push(request.url ?? '');
      if (!this.hold) return this.serve(request, response);
      this.held.set(request, () => this.serve(request, response));
      request.socket.once('close', () => this.held.delete(request));
    });
  }

  private serve(request: IncomingMessage, response: ServerResponse): void {
    try {
      const body = readFileSync(join(this.folder, (request.url ?? '').replace(/^\/+/, '').replace(/[/\\]/g, '')));
      response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length }).end(body);
    } catch {
      response.writeHead(404).end('not found');
    }
  }

  static async start(folder: string): Promise<TarballServer> {
    const served = new TarballServer(folder);
    await new Promise<void>((resolve) => served.server.listen(0, '127.0.0.1', resolve));
    return served;
  }

  get url(): string {
    const address = this.server.address();
    return `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  }

  /** How many held requests are still open (their client has not gone). */
  get heldOpen(): number {
    return this.held.size;
  }

  /** Serves every held request, and those that come after. */
  release(): void {
    this.hold = false;
    for (const [request, serve] of [...this.held]) {
      this.held.delete(request);
      serve();
    }
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
