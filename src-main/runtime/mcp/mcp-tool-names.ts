import { createHash } from 'node:crypto';

/** Providers accept tool names of letters, digits, `_` and `-`, at most 64 long. */
const MAX_NAME = 64;

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/**
 * The name the agent sees for a server's tool: `<server>__<tool>`, so two servers' tools never
 * collide with each other or with Cairn's own. A name too long for providers is cut and given a
 * short hash of the whole, so it stays unique and stable.
 */
export function agentToolName(serverName: string, toolName: string): string {
  const full = `${slug(serverName).slice(0, 24) || 'mcp'}__${slug(toolName) || 'tool'}`;
  if (full.length <= MAX_NAME) return full;
  const hash = createHash('sha256').update(`${serverName}\u0000${toolName}`).digest('hex').slice(0, 8);
  return `${full.slice(0, MAX_NAME - 9)}_${hash}`;
}
