import { join } from 'node:path';
import { LOCAL_SOCKET_NAME } from '../../src-shared/protocol';
import { connectLocalHost, type LocalWelcome } from './local-host-client';

/**
 * The address of the host that owns `dataDir`, asked through its local socket; null when none
 * answers there (it is still starting, or has no socket).
 */
export async function runningHostAddress(dataDir: string): Promise<LocalWelcome | null> {
  try {
    const client = await connectLocalHost(join(dataDir, LOCAL_SOCKET_NAME));
    client.close();
    return client.welcome;
  } catch {
    return null;
  }
}
