import { createHash } from 'node:crypto';
import type { InitializeResponse, McpServer, SessionConfigOption, SessionModeState } from '@agentclientprotocol/sdk';
import { z } from 'zod';
import { bounded, errorText, type AcpBounds } from './acp-bounds';
import type { LiveAcpAgent } from './live-acp-agent';

/**
 * A branch of an ACP session backed by `session/fork` of its source's agent session. ACP's fork
 * copies the whole agent session, later turns included; Claude's agent can fork at one of its own
 * answers (`_meta.jetbrains.air.fork`, found by the answer's text when Cairn does not know the agent's
 * message id), so a branch is forked only by an agent known to take that point. Otherwise the branch
 * starts a new agent session given Cairn's summary, and the reason is said.
 */

/** Where a branch forks from: its source's agent session, and the agent's last answer before the branch point. */
export interface AcpForkPoint {
  readonly acpSessionId: string;
  /** The answer's text, and which answer of that text it is in the conversation so far (1 for the first). */
  readonly answer: string;
  readonly occurrence: number;
}

/** The agents known to fork at one of their answers: Claude's (its `_meta.jetbrains.air.fork` point). */
const FORKS_AT_AN_ANSWER = new Set(['@agentclientprotocol/claude-agent-acp']);

const forkedSchema = z.object({
  sessionId: z.string().min(1).max(500),
  modes: z.unknown().optional(),
  configOptions: z.unknown().optional(),
});

/** Whether the agent declares `session/fork` (ACP's unstable `sessionCapabilities.fork`). */
export function agentForks(info: InitializeResponse): boolean {
  const capabilities: unknown = info.agentCapabilities?.sessionCapabilities;
  return (
    typeof capabilities === 'object' && capabilities !== null && 'fork' in capabilities && capabilities.fork != null
  );
}

/** The agent's name as the branch's notice says it. */
function agentName(info: InitializeResponse): string {
  return info.agentInfo?.title ?? info.agentInfo?.name ?? 'This agent';
}

/** Forks the agent session at the point, or says why it was not (then the caller starts a new one). */
export async function forkAgentSession(
  live: LiveAcpAgent,
  info: InitializeResponse,
  point: AcpForkPoint,
  cwd: string,
  mcpServers: McpServer[],
  bounds: AcpBounds,
): Promise<
  | {
      sessionId: string;
      modes: SessionModeState | null;
      configOptions: readonly SessionConfigOption[] | null;
    }
  | { refused: string }
> {
  const name = agentName(info);
  if (!agentForks(info)) return { refused: `${name} does not offer session/fork (not offered by this agent)` };
  if (!FORKS_AT_AN_ANSWER.has(info.agentInfo?.name ?? ''))
    return {
      refused: `${name} offers session/fork only of its whole session (later turns included), not at the branch point`,
    };
  try {
    const answer = await bounded(
      live.connection.agent.request<unknown>('session/fork', {
        sessionId: point.acpSessionId,
        cwd,
        mcpServers,
        _meta: {
          jetbrains: {
            air: {
              fork: {
                version: 1,
                // Cairn does not keep the agent's message ids: the answer is found by its text.
                messageId: `cairn-answer-${point.occurrence}`,
                messageFingerprint: `sha256:${createHash('sha256').update(point.answer).digest('hex')}`,
                messageOccurrence: point.occurrence,
              },
            },
          },
        },
      }),
      bounds.requestMs,
      'session/fork',
    );
    const forked = forkedSchema.parse(answer);
    return {
      sessionId: forked.sessionId,
      // The agent's own shapes, as `session/new` gives them; read as such by the selectors.
      modes: (forked.modes ?? null) as SessionModeState | null,
      configOptions: (forked.configOptions ?? null) as readonly SessionConfigOption[] | null,
    };
  } catch (error) {
    return { refused: `${name} could not fork its session at the branch point (${errorText(error).slice(0, 300)})` };
  }
}

/**
 * The fork point of a branch from what it holds before its first turn: the agent's last answer (its
 * last `assistant_message`), and how many answers of the same text come up to it. Null when there is none.
 */
export function forkPointIn(
  acpSessionId: string,
  items: readonly { readonly kind: string; readonly text: string }[],
): AcpForkPoint | null {
  const answers = items.filter((item) => item.kind === 'assistant_message' && item.text.trim() !== '');
  const last = answers.at(-1);
  if (last === undefined) return null;
  return {
    acpSessionId,
    answer: last.text,
    occurrence: answers.filter((item) => item.text === last.text).length,
  };
}
