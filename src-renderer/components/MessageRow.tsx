import { lazy, memo, Suspense, useState } from 'react';
import type { TranscriptItem } from '../../src-shared/model';
import {
  selectAnswerSeams,
  selectAnswerStreaming,
  selectAnswerText,
  selectContinuesAnswer,
  selectEndsTurn,
  selectHostUnreachable,
  selectItem,
  selectResumeInsideAnswer,
  type AnswerSeam,
} from '../state/selectors';
import { useAppStore } from '../state/store-context';
import { isDecisionItem, isProposalItem } from '../state/workhub-items';
import { attachmentRefsIn } from '../../src-shared/attachment-model';
import { SentAttachments } from './AttachmentTray';
import { RetryIcon, TargetIcon, WaitingIcon } from './icons';
import { isResumeNotice } from '../../src-shared/run-reasons';
import { messageAuthorLabel, messageAuthorOf, type MessageAuthor } from '../../src-shared/message-author';
import { LazyInteractionCard } from './LazyInteractionCard';
import { LazyMarkdown } from './LazyMarkdown';
import { ResumeSeamLabels } from './resume-seam-labels';
import { markSeams } from '../markdown/seam-marks';
import { ApprovedToolCall, ToolItem } from './ToolItem';
import { TurnStatus } from './TurnStatus';
import { isCompactionNotice } from '../../src-shared/compaction-model';
import { retryingImport } from '../platform/retrying-import';

/** A message's actions show on hover or focus: their code loads after the first paint, with the first message. */
const MessageActions = lazy(() =>
  retryingImport(() => import('./MessageActions')).then((module) => ({ default: module.MessageActions })),
);
/** Shown where older turns were summarised: its code loads with the first such card. */
const CompactionCard = lazy(() =>
  retryingImport(() => import('./CompactionCard')).then((module) => ({ default: module.CompactionCard })),
);
/** Proposal cards appear only in the WorkHub's transcript: their code loads with the first one. */
const ProposalCard = lazy(() =>
  retryingImport(() => import('./workhub/ProposalCard')).then((module) => ({ default: module.ProposalCard })),
);

/** The tool through which the agent asks the person; its result repeats the answer the card already shows. */
const ASK_USER_TOOL = 'ask_user';

/**
 * One transcript entry: its message (selected by id, so streaming into it re-renders only this row)
 * and, under the last message of a turn, the turn's status.
 */
export const MessageRow = memo(function MessageRow({
  sessionId,
  itemId,
  index,
}: {
  sessionId: string;
  itemId: string;
  index: number;
}) {
  const item = useAppStore(selectItem(sessionId, itemId));
  const endsTurn = useAppStore(selectEndsTurn(sessionId, index));
  const goalTurn = useAppStore((state) =>
    item === undefined ? false : state.transcripts[sessionId]?.turnsById[item.turnId]?.origin === 'goal',
  );
  const continuation = useAppStore(selectContinuesAnswer(sessionId, index));
  // A resume marker between the parts of one answer is drawn inside it, where the resumed part starts.
  const insideAnswer = useAppStore(selectResumeInsideAnswer(sessionId, index));
  if (item === undefined) return null;
  if (insideAnswer && isResumeNotice(item))
    return endsTurn ? <TurnStatus sessionId={sessionId} turnId={item.turnId} /> : null;
  return (
    <div className="entry">
      {continuation ? null : item.kind === 'assistant_message' ? (
        <AssistantAnswer item={item} sessionId={sessionId} index={index} />
      ) : (
        <MessageBody item={item} goalTurn={goalTurn} />
      )}
      {continuation ? null : (
        <Suspense fallback={null}>
          <MessageActions sessionId={sessionId} item={item} index={index} goalTurn={goalTurn} />
        </Suspense>
      )}
      <ApprovedToolCall item={item} />
      {endsTurn ? <TurnStatus sessionId={sessionId} turnId={item.turnId} /> : null}
    </div>
  );
});

/**
 * An assistant message with the continuations that follow it (Resume or Retry after it was cut off)
 * joined on: one answer on screen, as the model was asked to write it.
 */
function AssistantAnswer({ item, sessionId, index }: { item: TranscriptItem; sessionId: string; index: number }) {
  const text = useAppStore(selectAnswerText(sessionId, index));
  // No typing cursor while the host is unreachable: nothing is known to be streaming.
  const unreachable = useAppStore(selectHostUnreachable);
  const streaming = useAppStore(selectAnswerStreaming(sessionId, index)) && !unreachable;
  const seams = JSON.parse(useAppStore(selectAnswerSeams(sessionId, index))) as AnswerSeam[];
  return (
    <div className="message-line message-line-assistant">
      <div
        data-testid="message"
        data-kind={item.kind}
        data-item-id={item.itemId}
        className={`message message-assistant markdown${streaming ? ' is-streaming' : ''}`}
      >
        {seams.length === 0 ? (
          <LazyMarkdown text={text} />
        ) : (
          <ResumeSeamLabels.Provider value={seams.map((seam) => seam.label)}>
            <LazyMarkdown
              text={markSeams(
                text,
                seams.map((seam) => seam.offset),
              )}
            />
          </ResumeSeamLabels.Provider>
        )}
      </div>
    </div>
  );
}

/** The interaction a tool call opened (a question, a form, an approval), or a running call asked (an MCP server's question, a notice), if any. */
export function interactionIdOf(item: TranscriptItem): string | null {
  const id = item.kind === 'tool_call' || item.kind === 'notice' ? item.data?.interactionId : undefined;
  return typeof id === 'string' && id !== '' ? id : null;
}

/** The message itself. Its element's text is the message's text: labels and chrome sit outside it or come from CSS. */
function MessageBody({ item, goalTurn }: { item: TranscriptItem; goalTurn: boolean }) {
  // No typing cursor while the host is unreachable: nothing is known to be streaming.
  const unreachable = useAppStore(selectHostUnreachable);
  const streaming = item.state === 'streaming' && !unreachable;
  const common = {
    'data-testid': 'message',
    'data-kind': item.kind,
    'data-item-id': item.itemId,
  } as const;
  if (isProposalItem(item)) {
    return (
      <Suspense fallback={null}>
        <ProposalCard item={item} />
      </Suspense>
    );
  }
  if (isDecisionItem(item)) return null;
  if (item.kind === 'notice' && isCompactionNotice(item.data)) {
    return (
      <Suspense fallback={<div className="message-line message-line-compaction" />}>
        <CompactionCard item={item} compaction={item.data.compaction} />
      </Suspense>
    );
  }
  switch (item.kind) {
    case 'user_message': {
      if (goalTurn) return <GoalTurnMessage item={item} common={common} />;
      const author = messageAuthorOf(item.data);
      if (author !== null) return <AuthoredMessage item={item} author={author} common={common} />;
      return (
        <div className="message-line message-line-user">
          <div {...common} className="message message-user">
            {item.text}
            <SentAttachments attachments={attachmentRefsIn(item.data)} />
          </div>
        </div>
      );
    }
    case 'reasoning':
      return <Reasoning item={item} common={common} streaming={streaming} />;
    case 'tool_call': {
      const interactionId = interactionIdOf(item);
      if (interactionId !== null) {
        return (
          <div className="message-line message-line-interaction" {...common}>
            <LazyInteractionCard interactionId={interactionId} />
          </div>
        );
      }
      return <ToolItem item={item} common={common} />;
    }
    case 'tool_result':
      if (item.data?.toolName === ASK_USER_TOOL) return null;
      return <ToolItem item={item} common={common} />;
    case 'notice': {
      if (isResumeNotice(item)) return <ResumeMarker item={item} common={common} />;
      const interactionId = interactionIdOf(item);
      if (interactionId === null) return <Notice item={item} common={common} />;
      // The card names the server and shows its message; the notice's own text is for search and exports.
      return (
        <div className="message-line message-line-interaction" {...common}>
          <LazyInteractionCard interactionId={interactionId} />
        </div>
      );
    }
    default:
      return <Notice item={item} common={common} />;
  }
}

function Notice({ item, common }: { item: TranscriptItem; common: Record<string, string> }) {
  return (
    <div className="message-line message-line-notice">
      <div {...common} className="message message-notice">
        {item.text}
      </div>
    </div>
  );
}

/** Where a stopped or interrupted turn picked up again, and why the attempt before ended: a marker, not answer text. */
function ResumeMarker({ item, common }: { item: TranscriptItem; common: Record<string, string> }) {
  return (
    <div className="message-line message-line-resume">
      <div {...common} className="resume-marker" data-testid="resume-marker" role="note">
        <RetryIcon />
        <span>{item.text}</span>
      </div>
    </div>
  );
}

/** A turn the goal started: a quiet "Goal" marker in place of a message from the person, the prompt a click away. */
function GoalTurnMessage({ item, common }: { item: TranscriptItem; common: Record<string, string> }) {
  const [open, setOpen] = useState(false);
  const number = /^Goal turn (\d+)/.exec(item.text)?.[1];
  return (
    <div className="message-line message-line-goal">
      <div className="goal-turn-line">
        <span className="goal-chip" data-testid="goal-chip">
          <TargetIcon />
          Goal
        </span>
        <span className="goal-turn-label">
          {number === undefined ? 'A turn toward the goal' : `Turn ${number} toward the goal`}
        </span>
        <button type="button" className="text-button" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? 'Hide prompt' : 'Show prompt'}
        </button>
      </div>
      <div {...common} className={`message message-goal-prompt${open ? '' : ' is-folded'}`}>
        {item.text}
      </div>
    </div>
  );
}

/** A message a scheduled task or the daily review sent: marked with who wrote it, never as the person’s own bubble. */
function AuthoredMessage({
  item,
  author,
  common,
}: {
  item: TranscriptItem;
  author: MessageAuthor;
  common: Record<string, string>;
}) {
  return (
    <div className="message-line message-line-authored">
      <div className="authored-turn-line">
        <span className="authored-chip" data-testid="message-author" data-author={author.kind}>
          <WaitingIcon />
          {messageAuthorLabel(author)}
        </span>
      </div>
      <div {...common} className="message message-authored">
        {item.text}
      </div>
    </div>
  );
}

/** The agent’s reasoning, folded: "Thinking…" while it streams, "Thought for a moment" once final; a click opens it. */
function Reasoning({
  item,
  common,
  streaming,
}: {
  item: TranscriptItem;
  common: Record<string, string>;
  streaming: boolean;
}) {
  const [toggled, setToggled] = useState<boolean | null>(null);
  const open = toggled ?? false;
  return (
    <div className="message-line message-line-reasoning">
      <button type="button" className="reasoning-toggle" aria-expanded={open} onClick={() => setToggled(!open)}>
        {streaming ? 'Thinking…' : 'Thought for a moment'}
      </button>
      <div
        {...common}
        className={`message message-reasoning markdown${open ? '' : ' is-folded'}${streaming ? ' is-streaming' : ''}`}
      >
        <LazyMarkdown text={item.text} />
      </div>
    </div>
  );
}
