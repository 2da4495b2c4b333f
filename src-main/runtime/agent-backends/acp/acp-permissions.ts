import type { PermissionOption, RequestPermissionRequest, RequestPermissionResponse } from '@agentclientprotocol/sdk';
import type { InteractionRequest } from '../../../../src-shared/interaction-model';
import { unifiedDiff } from '../../workspace/file-change';
import type { AcpEventMapper } from './acp-event-mapper';

/** An ACP permission request as a Cairn approval card. */
export interface BridgedPermission {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: Record<string, unknown>;
  readonly request: InteractionRequest;
}

/** `session/request_permission` → an approval card showing the diff or the command the agent wants to run. */
export function bridgePermission(params: RequestPermissionRequest, mapper: AcpEventMapper): BridgedPermission {
  const call = mapper.callOf(params.toolCall);
  const diff = call.content.find((item) => item.type === 'diff');
  const terminal = call.content.find((item) => item.type === 'terminal');
  const summary = call.title.slice(0, 500) || 'Allow the agent’s tool call';
  const preview: Extract<InteractionRequest, { kind: 'permission' }>['preview'] =
    diff !== undefined
      ? {
          kind: 'diff',
          path: diff.path,
          diff: unifiedDiff(diff.path, diff.oldText ?? null, diff.newText).slice(0, 1_000_000),
        }
      : {
          kind: 'command',
          command:
            terminal === undefined
              ? JSON.stringify(call.input.rawInput ?? call.title, null, 2).slice(0, 100_000)
              : call.title,
          cwd: '',
        };
  return {
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    input: call.input,
    request: { kind: 'permission', toolName: call.toolName, summary, preview },
  };
}

/**
 * The agent's answer from the person's decision: the agent's own option of the matching kind
 * (allow once, allow always for the session, reject). A reason for a rejection goes in `_meta.reason`
 * (ACP has no field for it). Without a matching option: allow-always falls back to allow-once, and a
 * rejection with no reject option is `cancelled`.
 */
export function permissionResponse(
  options: readonly PermissionOption[],
  decision: 'allow_once' | 'allow_session' | 'deny',
  reason: string | null,
): RequestPermissionResponse {
  const wanted: readonly PermissionOption['kind'][] =
    decision === 'allow_session'
      ? ['allow_always', 'allow_once']
      : decision === 'allow_once'
        ? ['allow_once', 'allow_always']
        : ['reject_once', 'reject_always'];
  for (const kind of wanted) {
    const option = options.find((candidate) => candidate.kind === kind);
    if (option !== undefined) {
      return {
        outcome: { outcome: 'selected', optionId: option.optionId },
        ...(decision === 'deny' && reason !== null ? { _meta: { reason } } : {}),
      };
    }
  }
  return { outcome: { outcome: 'cancelled' } };
}
