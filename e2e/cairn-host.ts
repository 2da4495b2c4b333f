import type { Page } from '@playwright/test';
import { createServer } from 'node:net';
import type { OperationInput, OperationName, OperationResult } from '../src-shared/operations';
import { connectProtocolClient, SocketClosed, type ProtocolClient } from '../src-main/testing/protocol-client';
import { startServeProcess, type ServeProcess } from '../src-main/testing/serve-process';

/**
 * The real headless host as a child process on a fresh data directory, restartable on the same port.
 * Port 0 lets the first start take a free port (no race with another worker picking the same one);
 * later starts reuse it.
 */
export class CairnHost {
  private process: ServeProcess | null = null;
  private client: ProtocolClient | null = null;
  /** Whether the protocol client keeps every change event (a long benchmark turns it off). */
  keepEvents = true;

  constructor(
    readonly dataDir: string,
    readonly token: string,
    private boundPort: number,
    /** More environment for the host process (e.g. CAIRN_ACP_INSTALL_SOURCE). */
    readonly env: Record<string, string> = {},
    /** More command-line options for the host (e.g. `--listen 127.0.0.2` for devices.spec.ts). */
    readonly args: readonly string[] = [],
  ) {}

  get port(): number {
    return this.boundPort;
  }

  /** The host process's id while it runs (for reading its memory from /proc). */
  get pid(): number | undefined {
    return this.process?.child.pid;
  }

  /** What the host process printed so far (for a benchmark's error report). */
  output(): string {
    return this.process?.output() ?? '';
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/#token=${this.token}`;
  }

  async start(): Promise<void> {
    this.process = await startServeProcess({
      dataDir: this.dataDir,
      token: this.token,
      port: this.boundPort,
      entry: 'built',
      env: this.env,
      args: this.args,
    });
    this.boundPort = this.process.port;
  }

  /** SIGKILL: the host dies without any chance to tidy up. */
  async kill(): Promise<void> {
    await this.disconnect();
    if (this.process === null) return;
    this.process.child.kill('SIGKILL');
    await this.process.exited;
    this.process = null;
  }

  async stop(): Promise<void> {
    await this.disconnect();
    if (this.process === null) return;
    this.process.child.kill('SIGTERM');
    await this.process.exited;
    this.process = null;
  }

  /** Opens the app in `page` and waits until it is connected. */
  async open(page: Page): Promise<void> {
    await page.goto(this.url);
    await page.getByRole('navigation', { name: 'Sessions' }).waitFor({ state: 'visible' });
  }

  /**
   * Calls an operation over the protocol (for seeding and for checking the record). A socket the host
   * closed (e.g. a client too slow for a flood of events) is opened again, and a request that was never
   * sent on it is sent on the new one.
   */
  async call<N extends OperationName>(op: N, input: OperationInput<N>): Promise<OperationResult<N>> {
    try {
      return await (await this.connected()).call(op, input);
    } catch (error) {
      if (!(error instanceof SocketClosed)) throw error;
      this.client = null;
      return (await this.connected()).call(op, input);
    }
  }

  private async connected(): Promise<ProtocolClient> {
    this.client ??= await connectProtocolClient(`ws://127.0.0.1:${this.port}/`, {
      token: this.token,
      keepEvents: this.keepEvents,
    });
    return this.client;
  }

  private async disconnect(): Promise<void> {
    await this.client?.close();
    this.client = null;
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
