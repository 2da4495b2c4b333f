import type { SessionModeState, StopReason } from '@agentclientprotocol/sdk';
import type { ContextMeter } from '../../../../src-shared/context-model';
import { agentModeIn } from '../../../../src-shared/acp-modes';
import type { PermissionMode } from '../../../../src-shared/model';
import { AgentBackendError, type AgentEvent } from '../../contract/agent-backend';
import type { AcpTurnUsage } from './live-acp-agent';

/** How Cairn reads an ACP agent's turn: its usage and context meter, how it ends, the mode it is put in, what is decided without asking. */

/** The header's context meter from the agent's `usage_update`: what its context holds of its window (the agent runs its own context: no breakdown). */
export function contextMeterOf(
  update: { readonly used: number; readonly size: number },
  agentName: string,
): ContextMeter {
  return {
    used: update.used,
    contextWindow: update.size,
    outputReserve: 0,
    windowSource: 'reported',
    breakdown: { system: 0, summary: 0, messages: 0, toolOutput: 0 },
    trimmed: false,
    modelId: agentName,
  };
}

/**
 * The turn's usage as Cairn records a model call's (the agent is the model): the tokens the agent put
 * in its answer, and the cost it reported meanwhile (`usage_update`), when it said either; else null.
 */
export function usageEvent(usage: AcpTurnUsage | null, costUsd: number | null, agentName: string): AgentEvent | null {
  if (usage === null && costUsd === null) return null;
  return {
    type: 'usage',
    model: agentName,
    inputTokens: usage?.inputTokens ?? 0,
    outputTokens: usage?.outputTokens ?? 0,
    cachedInputTokens: usage?.cachedReadTokens ?? 0,
    reasoningTokens: usage?.thoughtTokens ?? 0,
    latencyMs: 0,
    costUsd,
  };
}

/** How a prompt turn's stop reason ends the Cairn run: normally, or as a failure of its class. */
export function endOf(stopReason: StopReason, signal: AbortSignal): void {
  switch (stopReason) {
    case 'end_turn':
      return;
    case 'cancelled':
      if (signal.aborted) return;
      throw new AgentBackendError('agent_cancelled', 'The ACP agent cancelled the turn on its own.', 'agent_cancelled');
    case 'refusal':
      throw new AgentBackendError('agent_refused', 'The ACP agent refused to continue this request.', 'agent_refused');
    case 'max_tokens':
      throw new AgentBackendError(
        'max_tokens',
        'The ACP agent reached its token limit before finishing.',
        'max_tokens',
      );
    case 'max_turn_requests':
      throw new AgentBackendError(
        'max_turn_requests',
        'The ACP agent reached its limit of model requests for one turn.',
        'max_turn_requests',
      );
  }
}

/**
 * The agent mode to switch to for a Cairn permission mode and the person's choice (`preferred`), among
 * those the agent offers, or null (it offers none, or is in it already). Cairn answers the agent's
 * permission requests itself (allowing in Full, rejecting in Explore), so outside Full the agent is
 * kept in a mode where it asks before every change (Claude's `default`, "Manual"; in Explore its
 * read-only `plan`): see `src-shared/acp-modes.ts`.
 */
export function agentModeFor(
  modes: SessionModeState | null,
  permissionMode: PermissionMode,
  preferred: string | null = null,
): string | null {
  if (modes === null) return null;
  const wanted = agentModeIn(
    modes.availableModes.map((mode) => mode.id),
    permissionMode,
    preferred,
  );
  return wanted === null || wanted === modes.currentModeId ? null : wanted;
}

/**
 * Full mode allows without asking, as does Auto with the agent inside the sandbox (what its own tools do
 * is contained); Explore rejects; a tool allowed for the session is allowed again; else null (ask the person).
 */
export function automaticDecision(
  mode: PermissionMode,
  allowedForSession: boolean,
  walled = false,
): 'allow_once' | 'allow_session' | 'deny' | null {
  if (mode === 'full' || (mode === 'auto' && walled)) return 'allow_once';
  if (mode === 'explore') return 'deny';
  return allowedForSession ? 'allow_session' : null;
}
