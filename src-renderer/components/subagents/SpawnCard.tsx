import type { TranscriptItem } from '../../../src-shared/model';
import {
  selectChildLink,
  selectChildStatus,
  selectSessionTitle,
  selectSpawnedChildId,
} from '../../state/agent-selectors';
import { useAppStore, useStoreApi } from '../../state/store-context';
import { selectToolResult, toolCallKeyOf } from '../../state/tool-calls';
import { ToolCallView } from '../workspace/ToolCallView';
import { AgentIcon, AgentStatusChip, sessionHref } from './AgentStatusChip';
import { openInPlace } from './open-in-place';

type Fields = Readonly<Record<string, unknown>>;
const fieldsOf = (value: unknown): Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : {};
const stringOf = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/**
 * A spawn_agent call in the parent's transcript, as a card: the child's agent and task, its live
 * status (kept by agent.changed), and a link into its transcript. A spawn that was refused shows as
 * the failed tool call it was.
 */
export function SpawnCard({ item, common }: { item: TranscriptItem; common: Record<string, string> }) {
  const store = useStoreApi();
  const callKey = toolCallKeyOf(item);
  const looked = useAppStore(selectToolResult(item.sessionId, item.kind === 'tool_call' ? callKey : null));
  const result = item.kind === 'tool_result' ? item : looked;
  const toolCallId = stringOf(item.data?.toolCallId) ?? '';
  const linked = useAppStore(selectSpawnedChildId(item.sessionId, item.turnId, toolCallId));
  const childId = linked ?? stringOf(fieldsOf(result?.data?.output).childSessionId);
  const link = useAppStore(selectChildLink(childId ?? ''));
  const status = useAppStore(selectChildStatus(childId ?? ''));
  const terminalReason = useAppStore((state) =>
    childId === null ? null : (state.agents.nodes[childId]?.terminalReason ?? null),
  );
  const title = useAppStore(selectSessionTitle(childId ?? '', ''));

  if (childId === null && result?.data?.isError === true) {
    return (
      <ToolCallView
        sessionId={item.sessionId}
        callKey={callKey}
        {...(item.kind === 'tool_call' ? { call: item } : { result: item })}
        common={common}
      />
    );
  }
  const input = fieldsOf(item.kind === 'tool_call' ? item.data?.input : undefined);
  const agentName = link?.agentName ?? stringOf(input.agent) ?? 'Child agent';
  const task = link?.task ?? stringOf(input.task) ?? '';
  const shown = status ?? (childId === null ? 'starting' : null);
  const name = title !== '' ? title : agentName;

  return (
    <div
      className="message-line message-line-tool spawn-card"
      data-testid="spawn-card"
      data-status={shown ?? 'unknown'}
      data-child-session-id={childId ?? undefined}
    >
      <div className="spawn-card-head">
        <span className="spawn-card-icon" aria-hidden="true">
          <AgentIcon />
        </span>
        <span className="spawn-card-agent">{agentName}</span>
        <span {...common} className="message message-tool spawn-card-tool">
          {item.text}
        </span>
        {shown === null ? null : <AgentStatusChip status={shown} terminalReason={terminalReason} />}
      </div>
      {task === '' ? null : (
        <p className="spawn-card-task" title={task}>
          {task}
        </p>
      )}
      {childId === null ? null : (
        <a
          className="spawn-card-open"
          href={sessionHref(childId)}
          aria-label={`Open transcript: ${name}`}
          onClick={(event) => openInPlace(event, () => store.getState().selectSession(childId))}
        >
          Open transcript
          <span aria-hidden="true"> →</span>
        </a>
      )}
    </div>
  );
}
