import type { ContextMeter } from '../../../../src-shared/context-model';
import { tokenUsageNotificationSchema } from './codex-protocol';

/**
 * The header's context meter from Codex's `thread/tokenUsage/updated`: what its latest request and
 * answer hold of the model window Codex reports. Null for any other message, or when Codex reports no
 * window. Codex runs its own context, so there is no breakdown and no reserve of Cairn's.
 */
export function contextMeterOf(method: string, params: unknown, modelId: string): ContextMeter | null {
  if (method !== 'thread/tokenUsage/updated') return null;
  const parsed = tokenUsageNotificationSchema.safeParse(params);
  if (!parsed.success) return null;
  const { last, modelContextWindow } = parsed.data.tokenUsage;
  if (modelContextWindow == null) return null;
  return {
    used: last.inputTokens + last.outputTokens,
    contextWindow: modelContextWindow,
    outputReserve: 0,
    windowSource: 'reported',
    breakdown: { system: 0, summary: 0, messages: 0, toolOutput: 0 },
    trimmed: false,
    modelId,
  };
}
