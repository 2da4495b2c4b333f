import { lazy, Suspense } from 'react';
import type { TranscriptItem } from '../../src-shared/model';
import { retryingImport } from '../platform/retrying-import';
import { useAppStore } from '../state/store-context';
import { selectToolCallLoaded, toolCallKeyOf } from '../state/tool-calls';
import { ToolCallView } from './workspace/ToolCallView';
import { SPAWN_TOOL } from './subagents/open-in-place';

/** A child agent's card loads with the first one shown. */
const SpawnCard = lazy(() =>
  retryingImport(() => import('./subagents/SpawnCard')).then((module) => ({ default: module.SpawnCard })),
);

/**
 * A tool call or its result. The call's line shows the result too (status, duration, output a click
 * away), so a result whose call is loaded shows nothing of its own; one whose call is not loaded (an
 * older page) stands in for it.
 */
export function ToolItem({ item, common }: { item: TranscriptItem; common: Record<string, string> }) {
  const key = toolCallKeyOf(item);
  if (item.kind === 'tool_result') return <ToolResultItem item={item} callKey={key} common={common} />;
  if (item.data?.toolName === SPAWN_TOOL) {
    return (
      <Suspense fallback={null}>
        <SpawnCard item={item} common={common} />
      </Suspense>
    );
  }
  return <ToolCallView sessionId={item.sessionId} callKey={key} call={item} common={common} />;
}

function ToolResultItem({
  item,
  callKey,
  common,
}: {
  item: TranscriptItem;
  callKey: string | null;
  common: Record<string, string>;
}) {
  const callLoaded = useAppStore(selectToolCallLoaded(item.sessionId, callKey));
  if (callLoaded) return null;
  if (item.data?.toolName === SPAWN_TOOL) {
    return (
      <Suspense fallback={null}>
        <SpawnCard item={item} common={common} />
      </Suspense>
    );
  }
  return <ToolCallView sessionId={item.sessionId} callKey={callKey} result={item} common={common} />;
}

/** The interaction a tool call opened, if any. */
function interactionIdOf(item: TranscriptItem): string | null {
  const id = item.kind === 'tool_call' ? item.data?.interactionId : undefined;
  return typeof id === 'string' && id !== '' ? id : null;
}

/**
 * Under an approval the person allowed: the call as it ran (status, duration, result; a shell
 * command's live terminal). Nothing for other items, pending or denied approvals, or questions.
 */
export function ApprovedToolCall({ item }: { item: TranscriptItem }) {
  const interactionId = interactionIdOf(item);
  const allowedAt = useAppStore((state) => {
    const record = interactionId === null ? undefined : state.interactions.byId[interactionId];
    if (record === undefined || record.request.kind !== 'permission' || record.status !== 'answered') return null;
    const answer = record.answer;
    return answer !== null && 'decision' in answer ? record.updatedAt : null;
  });
  if (allowedAt === null) return null;
  return (
    <ToolCallView
      sessionId={item.sessionId}
      callKey={toolCallKeyOf(item)}
      call={item}
      startedAt={allowedAt}
      common={{}}
    />
  );
}
