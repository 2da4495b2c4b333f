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

/**
 * What the card says of a reason for denying when the agent cannot take it into its turn
 * (`_session/steering`): it goes only as `_meta.reason`, which an agent may ignore.
 */
export const UNSTEERED_REASON_NOTE =
  'This agent is told you denied it; your reason goes only as a note it may not pass on to its model.';

/**
 * `session/request_permission` → an approval card showing the diff or the command the agent wants to
 * run; `steers`: whether a reason for denying reaches the agent's model in its turn.
 */
export function bridgePermission(
  params: RequestPermissionRequest,
  mapper: AcpEventMapper,
  steers: boolean,
): BridgedPermission {
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
    request: {
      kind: 'permission',
      toolName: call.toolName,
      summary,
      preview,
      ...(steers ? {} : { reasonNote: UNSTEERED_REASON_NOTE }),
    },
  };
}

/**
 * The agent's answer from the person's decision: the agent's own option of the matching kind
 * (allow once, allow always for the session, reject). A reason for a rejection goes in `_meta.reason`
 * (ACP has no field for it; an agent that steers is also told it in its turn, by `acp-backend.ts`). Without a matching option: allow-always falls back to allow-once, and a
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

/** What the agent's model is told, in its running turn, of a denial with a reason. */
export function denialText(title: string, reason: string): string {
  return `I denied "${title}". My reason: ${reason}`;
}
