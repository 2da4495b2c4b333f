import { connectProtocolClient, type ProtocolClient } from './protocol-client';
import { startServeProcess, type ServeProcess } from './serve-process';

/**
 * A headless host process on `dataDir` and a protocol client connected to it; both are ended by the
 * cleanups pushed onto `cleanups` (the host SIGKILLed if it still runs, so a test may kill it first).
 */
export async function serveWithClient(
  dataDir: string,
  token: string,
  cleanups: Array<() => Promise<void> | void>,
): Promise<{ server: ServeProcess; client: ProtocolClient }> {
  const server = await startServeProcess({ dataDir, token });
  cleanups.push(async () => {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    await server.exited;
  });
  const client = await connectProtocolClient(server.wsUrl, { token });
  cleanups.push(() => client.close().catch(() => {}));
  return { server, client };
}
