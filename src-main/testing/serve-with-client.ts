import { connectProtocolClient, type ProtocolClient } from './protocol-client';
import { startServeProcess, type ServeProcess } from './serve-process';

/**
 * A headless host process on `dataDir` and a protocol client connected to it; both are ended by the
 * cleanups pushed onto `cleanups`. A host still running is asked to stop (SIGTERM), as a person's quit
 * does: its shutdown waits for the checkpoint git it started (at the lowest CPU priority, which a busy
 * machine can hold for seconds), so nothing still writes in the data directory when the test removes it.
 * One that does not stop within `STOP_GRACE_MS` is SIGKILLed. A test may end the host itself first.
 */
const STOP_GRACE_MS = 30_000;

export async function serveWithClient(
  dataDir: string,
  token: string,
  cleanups: Array<() => Promise<void> | void>,
): Promise<{ server: ServeProcess; client: ProtocolClient }> {
  const server = await startServeProcess({ dataDir, token });
  cleanups.push(async () => {
    const running = server.child.exitCode === null && server.child.signalCode === null;
    if (running) server.child.kill('SIGTERM');
    const killLater = running ? setTimeout(() => server.child.kill('SIGKILL'), STOP_GRACE_MS) : undefined;
    await server.exited;
    clearTimeout(killLater);
  });
  const client = await connectProtocolClient(server.wsUrl, { token });
  cleanups.push(() => client.close().catch(() => {}));
  return { server, client };
}
