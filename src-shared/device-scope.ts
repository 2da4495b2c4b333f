import type { OperationName } from './operations';

const DESKTOP_ONLY: ReadonlySet<string> = new Set<OperationName>([
  'device.pairing.start',
  'device.pairing.cancel',
  'device.pairing.confirm',
  'device.rename',
  'device.revoke',
  'device.reach.set',
  'device.reach.regenerate',
  'device.hostName.set',
  'connection.create',
  'connection.update',
  'connection.remove',
  'connection.setDefault',
  'connection.discover',
  'connection.setModelSettings',
  'mcp.server.create',
  'mcp.server.update',
  'mcp.server.remove',
  'acp.install',
  'acp.login.methods',
  'acp.login.start',
  'acp.login.input',
  'acp.login.cancel',
  'hooks.trust',
  'hooks.setEnabled',
  'hooks.configure',
  'hooks.test',
]);

/**
 * What a paired device may not do: pair devices or manage them, change connections and keys, sign in to agents (a sign-in runs the agent's program here), trust or
 * change the person's hooks (they run code on this machine), or switch anything to Full. The host refuses these with `device_forbidden`; the client hides them.
 */
export function deviceMayCall(op: string, input: unknown): boolean {
  if (DESKTOP_ONLY.has(op)) return false;
  const mode =
    typeof input === 'object' && input !== null ? (input as { permissionMode?: unknown }).permissionMode : undefined;
  return mode !== 'full';
}
