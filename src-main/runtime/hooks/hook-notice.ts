import type { HookRunReport } from './hook-service';

/**
 * How a hook's run reads in the transcript: a notice naming the event, the hook's command and how it
 * ended, with its message. `modelText`, when given, is what the model reads from it (a prompt's added
 * context, a Stop hook's reason, a PostToolUse hook's feedback): the notice then counts as a user message.
 */
export function hookNotice(
  report: HookRunReport,
  options: { toolCallId?: string; modelText?: string | null } = {},
): { text: string; data: Record<string, unknown> } {
  const how =
    report.outcome === 'blocked'
      ? 'blocked'
      : report.outcome === 'error'
        ? `failed (${report.error ?? 'error'})${report.onError === 'fail' ? '' : '; the turn went on'}`
        : `ran (exit ${String(report.exitCode)})`;
  const text = `${report.event} hook ${how}: ${report.command}${report.message === '' ? '' : ` — ${report.message}`}`;
  return {
    text,
    data: {
      hook: report,
      ...(options.toolCallId === undefined ? {} : { toolCallId: options.toolCallId }),
      ...(options.modelText === undefined || options.modelText === null ? {} : { hookContext: options.modelText }),
    },
  };
}
