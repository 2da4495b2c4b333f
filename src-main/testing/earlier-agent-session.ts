import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AcpPresetKind } from '../../src-shared/connection-model';
import { DEFAULT_ACP_BOUNDS } from '../runtime/agent-backends/acp/acp-bounds';
import { withAgent } from '../runtime/agent-backends/acp/acp-session-import';
import { presetCommand } from '../runtime/connections/acp-presets';
import { linkRealAgents } from './real-acp-agents';

/**
 * A session made by a real ACP agent itself, outside Cairn (as an editor would drive it), in
 * `workspace` with the agent's config under `home`: one prompt, answered by the model server at
 * `baseUrl`. Returns the agent's session id. For the tests of Import from ‹agent›.
 */
export async function earlierAgentSession(
  kind: AcpPresetKind,
  access: { readonly home: string; readonly baseUrl: string; readonly apiKey: string },
  workspace: string,
  prompt: string,
): Promise<string> {
  const agents = mkdtempSync(join(tmpdir(), `cairn-${kind}-elsewhere-`));
  linkRealAgents(agents);
  const command = presetCommand(
    { kind, model: null },
    { HOME: access.home },
    { apiKey: access.apiKey, baseUrl: access.baseUrl },
    agents,
  );
  if ('error' in command) throw new Error(command.error);
  const bounds = { ...DEFAULT_ACP_BOUNDS, startMs: 120_000, requestMs: 180_000 };
  return withAgent(command, workspace, '0.0.0-test', bounds, async (live) => {
    const created = await live.connection.agent.request('session/new', { cwd: workspace, mcpServers: [] });
    const answer = await live.connection.agent.request('session/prompt', {
      sessionId: created.sessionId,
      prompt: [{ type: 'text', text: prompt }],
    });
    if (answer.stopReason !== 'end_turn') throw new Error(`the agent ended its turn with ${answer.stopReason}`);
    return created.sessionId;
  });
}
