import type * as AcpAgentParts from './acp-agent-parts';

let loading: Promise<typeof AcpAgentParts> | null = null;

/** The ACP SDK costs the idle host memory it does not need until an ACP agent first starts (or is tested). */
export function loadAcpAgent(): Promise<typeof AcpAgentParts> {
  return (loading ??= import('./acp-agent-parts'));
}
