import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * The TCP ports this process listens on (Linux: its sockets in /proc/self/fd matched with the
 * listening ones in /proc/net/tcp and tcp6): Cairn's own port, and any other it serves, which a
 * sandboxed command must never reach through the proxy.
 */
export function ownListeningPorts(): number[] {
  const inodes = new Set<string>();
  try {
    for (const fd of readdirSync('/proc/self/fd')) {
      try {
        const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/self/fd/${fd}`));
        if (match?.[1] !== undefined) inodes.add(match[1]);
      } catch {
        // closed meanwhile
      }
    }
  } catch {
    return [];
  }
  const ports = new Set<number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local_address is field 1 ("0100007F:1F90"), st field 3 (0A = LISTEN), inode field 9.
      const [, local, , state, , , , , , inode] = fields;
      if (state !== '0A' || inode === undefined || !inodes.has(inode) || local === undefined) continue;
      ports.add(Number.parseInt(local.split(':')[1] ?? '0', 16));
    }
  }
  return [...ports];
}
